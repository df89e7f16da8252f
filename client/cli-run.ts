/**
 * The CLI's behaviour, separate from `cli.ts` so tests run it in-process with captured output.
 */
import { CliUsageError, USAGE, parseCliArgs, parseJsonArgs, type CliArgs } from './cli-args.js';
import {
  CLI_EXIT_CODES,
  exitCodeOf,
  printOutcome,
  printPage,
  printResume,
  printTerminal,
  printViolation,
  type CliIo,
} from './cli-output.js';
import { readDevToken } from './dev-tokens.js';
import { McpClientError } from './errors.js';
import { McpHttpClient, type CallToolOptions } from './mcp-http.js';
import { callAsTask } from './cli-task.js';

/** Injected dependencies of {@link runCli}. */
export interface CliEnvironment extends CliIo {
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Interrupt (Ctrl-C): ends a running call and sends `notifications/cancelled` for it. */
  signal?: AbortSignal;
}

/** Runs one CLI invocation and resolves to its exit code (see `USAGE`). */
export async function runCli(argv: readonly string[], env: CliEnvironment): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
    if (args.help) {
      env.stdout(USAGE);
      return 0;
    }
  } catch (error) {
    return usageFailure(env, error);
  }
  let client: McpHttpClient | undefined;
  try {
    const token = args.tokenFile !== undefined ? await readDevToken(args.tokenFile, args.user) : args.token;
    client = new McpHttpClient({
      url: args.url,
      protocol: args.stateless ? 'stateless' : 'sessionful',
      ...(token !== undefined ? { token } : {}),
      ...(env.fetch !== undefined ? { fetch: env.fetch } : {}),
    });
    return await runCommand(client, args, env);
  } catch (error) {
    if (error instanceof CliUsageError) return usageFailure(env, error);
    if (error instanceof McpClientError) {
      env.stderr(`error (${error.code}): ${error.message}`);
      // Without a response there is no confirmed result (contract §5); everything else is a protocol error.
      return error.code === 'network' || error.code === 'no_confirmed_result'
        ? CLI_EXIT_CODES.noConfirmedResult.code
        : CLI_EXIT_CODES.protocolError.code;
    }
    throw error;
  } finally {
    await client?.close().catch(() => undefined);
  }
}

async function runCommand(client: McpHttpClient, args: CliArgs, env: CliEnvironment): Promise<number> {
  const [first, second, third] = args.positionals;
  switch (args.command) {
    case 'discover': {
      const info = await client.discover();
      if (args.json) env.stdout(JSON.stringify({ event: 'discover', ...info, raw: undefined }));
      else {
        env.stdout(`protocol: ${info.protocol} (${info.protocolVersions.join(', ')})`);
        if (info.serverInfo) env.stdout(`server: ${JSON.stringify(info.serverInfo)}`);
        env.stdout(
          info.sourceResults
            ? `bos/source-results/v1: ${JSON.stringify(info.sourceResults)}`
            : 'bos/source-results/v1: not advertised',
        );
      }
      return 0;
    }
    case 'contexts':
      return call(client, 'bos_list_contexts', {}, args, env);
    case 'tools': {
      if (first !== undefined) return call(client, 'bos_list_tools', { context_handle: first }, args, env);
      const tools = await client.listTools();
      for (const tool of tools)
        env.stdout(
          args.json
            ? JSON.stringify({ event: 'tool', name: tool.name, description: tool.description })
            : `${String(tool.name)}  ${typeof tool.description === 'string' ? tool.description : ''}`,
        );
      return 0;
    }
    case 'call':
      if (first === undefined) throw new CliUsageError('call needs <tool> <json-args>');
      return call(client, first, parseJsonArgs(second, '<json-args>'), args, env);
    case 'execute':
      if (first === undefined || second === undefined)
        throw new CliUsageError('execute needs <context_handle> <tool_name> <json-args>');
      return call(
        client,
        'bos_execute',
        { context_handle: first, tool_name: second, arguments: parseJsonArgs(third, '<json-args>') },
        args,
        env,
      );
    case undefined:
      throw new CliUsageError('missing command');
    default:
      throw new CliUsageError(`unknown command ${args.command}`);
  }
}

async function call(
  client: McpHttpClient,
  name: string,
  toolArgs: Record<string, unknown>,
  args: CliArgs,
  env: CliEnvironment,
): Promise<number> {
  if (args.task) {
    if (args.stateless || args.stream)
      throw new CliUsageError('--task works in the session-ful shape, without --stream');
    return callAsTask(client, name, toolArgs, { json: args.json, withResult: args.result }, env);
  }
  const options: CallToolOptions = {
    stream: args.stream,
    ...(env.signal !== undefined && { signal: env.signal }),
    onViolation: (v) => printViolation(env, args.json, v),
    // A stream that breaks is resumed where the server keeps its events (docs/client.md).
    resume: { onResume: (attempt) => printResume(env, args.json, attempt) },
  };
  if (args.stream) {
    options.onPage = (page) => printPage(env, args.json, page);
    options.onSourceComplete = (terminal) => printTerminal(env, args.json, terminal);
    options.onSourceError = (terminal) => printTerminal(env, args.json, terminal);
  }
  const outcome = await client.callTool(name, toolArgs, options);
  printOutcome(env, args.json, outcome, !args.stream || args.result);
  return exitCodeOf(outcome);
}

function usageFailure(env: CliIo, error: unknown): number {
  env.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  return CLI_EXIT_CODES.protocolError.code;
}
