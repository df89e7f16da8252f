/**
 * Command-line parsing for `client/cli.ts`. Options may appear anywhere; positionals keep their order.
 */

import { CLI_EXIT_CODES } from './cli-output.js';

/** The platform endpoint of the local stack (`npm start`). */
export const DEFAULT_URL = 'http://127.0.0.1:3000/mcp/apps/bos/platform';

export const USAGE = `usage: npm run client -- [--url URL] [--token T | --token-file .local/dev-tokens.json --user dev-user]
                     [--stateless] [--json] [--task] [--result] <command>

commands:
  discover                                         show the advertised capabilities (initialize / server/discover)
  contexts                                         call bos_list_contexts
  tools [context_handle]                           tools/list, or bos_list_tools for a context
  call <tool> <json-args> [--stream]               call a tool (direct federated read tools included)
  execute <context_handle> <tool_name> <json-args> [--stream]
                                                   call bos_execute

--stream prints each bos/source-results/v1 event as it arrives, then the final summary.
--json   prints JSON lines instead of text.
--task   runs call/execute as an MCP task (session-ful shape): prints the task's status messages while it
         runs, then the final summary.
--result with --stream or --task, also prints the result body before the summary (a call without either
         always prints it).
exit codes (the same with --stream and --task):
${Object.values(CLI_EXIT_CODES)
  .map(({ code, meaning }) => `  ${code}  ${meaning}`)
  .join('\n')}`;

/** Bad command line; the CLI prints the usage and exits 2. */
export class CliUsageError extends Error {
  readonly code = 'usage';

  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** Parsed command line. */
export interface CliArgs {
  url: string;
  token?: string;
  tokenFile?: string;
  user?: string;
  stateless: boolean;
  stream: boolean;
  task: boolean;
  /** Print the result body with `--stream`/`--task` too. */
  result: boolean;
  json: boolean;
  help: boolean;
  command: string | undefined;
  positionals: string[];
}

const VALUE_OPTIONS = new Set(['--url', '--token', '--token-file', '--user']);
const FLAG_OPTIONS = new Set(['--stateless', '--stream', '--task', '--result', '--json', '--help', '-h']);

/** Parses argv (without `node` and the script). */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = {
    url: DEFAULT_URL,
    stateless: false,
    stream: false,
    task: false,
    result: false,
    json: false,
    help: false,
    command: undefined,
    positionals: [],
  };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (VALUE_OPTIONS.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '') throw new CliUsageError(`${name} needs a value`);
      if (name === '--url') args.url = value;
      else if (name === '--token') args.token = value;
      else if (name === '--token-file') args.tokenFile = value;
      else args.user = value;
    } else if (FLAG_OPTIONS.has(arg)) {
      if (arg === '--stateless') args.stateless = true;
      else if (arg === '--stream') args.stream = true;
      else if (arg === '--task') args.task = true;
      else if (arg === '--result') args.result = true;
      else if (arg === '--json') args.json = true;
      else args.help = true;
    } else if (arg.startsWith('--')) throw new CliUsageError(`unknown option ${arg}`);
    else positionals.push(arg);
  }
  if (args.token !== undefined && args.tokenFile !== undefined)
    throw new CliUsageError('use either --token or --token-file, not both');
  if (args.user !== undefined && args.tokenFile === undefined)
    throw new CliUsageError('--user needs --token-file');
  args.command = positionals.shift();
  args.positionals = positionals;
  return args;
}

/** Parses a JSON-object argument such as `'{"query":"ada"}'`. */
export function parseJsonArgs(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined) throw new CliUsageError(`missing ${what}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliUsageError(`${what} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliUsageError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}
