/**
 * The same call outside the console: a CLI command (docs/client.md) and the JSON-RPC request it sends. The
 * token is never printed; the command reads it from `$BOS_TOKEN`.
 */

/** A `bos_execute` call as the console made it. */
export interface ExecuteCall {
  endpoint: string;
  contextHandle: string;
  toolName: string;
  arguments: Record<string, unknown>;
  id: number | string;
}

/** Quotes a word for a POSIX shell. */
function shellQuote(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `npm run client -- … execute <context> <tool> <json> --stream`. */
export function cliCommand(call: ExecuteCall): string {
  return [
    'npm run client --',
    `--url ${shellQuote(call.endpoint)}`,
    '--token "$BOS_TOKEN"',
    'execute',
    shellQuote(call.contextHandle),
    shellQuote(call.toolName),
    shellQuote(JSON.stringify(call.arguments)),
    '--stream',
  ].join(' ');
}

/** The `tools/call` body with the request-local `bos/source-results/v1` opt-in (contract §2). */
export function jsonRpcRequest(call: ExecuteCall): string {
  return JSON.stringify(
    {
      jsonrpc: '2.0',
      id: call.id,
      method: 'tools/call',
      params: {
        name: 'bos_execute',
        arguments: {
          context_handle: call.contextHandle,
          tool_name: call.toolName,
          arguments: call.arguments,
        },
        _meta: {
          'io.modelcontextprotocol/clientCapabilities': {
            experimental: { 'bos/source-results/v1': {} },
          },
        },
      },
    },
    null,
    2,
  );
}
