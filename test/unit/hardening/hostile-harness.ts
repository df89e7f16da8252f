/**
 * Drives the demo Lambda entry (`test/helpers/demo-entry.ts`: real middy streamify mode, real AWS adapters, the
 * MCP runtime) in process, without sockets, with hostile REST v1 proxy events, and reads back what API
 * Gateway would relay: status, JSON-RPC code, body.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { installFakeAwsLambda } from '../../helpers/fake-awslambda.js';
import { FakeResponseStream, parseStreamedResponse } from '../../helpers/fake-response-stream.js';
import { withLogLines } from '../../helpers/log-lines.js';
import { lambdaContext, restEvent } from '../../helpers/rest-events.js';

type StreamingHandler = (
  event: APIGatewayProxyEvent,
  stream: FakeResponseStream,
  context: Context,
) => Promise<void>;

/** What a client receives. */
export interface Answer {
  status: number;
  /** The JSON-RPC error code (the first one, for a batch); undefined for a result or a non-JSON-RPC body. */
  code: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** The entry's log and EMF lines for this request (taken, not printed). */
  logLines: string[];
}

export const ENDPOINT_PATH = '/mcp/apps/bos/platform';
export const POST_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};
export const MODERN = '2026-07-28';

/** Text no answer may contain: exception names, stack frames, engine internals, stringified functions. */
export const RUNTIME_TEXT =
  /TypeError|RangeError|ReferenceError|SyntaxError|\bat [\w.<>$]+ \(|native code|\[object |is not a function|Cannot read|node:internal|undefined is|Maximum call stack/;

let handler: StreamingHandler | undefined;
let restore: () => void = () => undefined;

/** Loads the entry with the fake `awslambda` global (middy calls it at module load). */
export async function loadEntry(): Promise<void> {
  restore = installFakeAwsLambda();
  ({ handler } = (await import('../../helpers/demo-entry.js')) as unknown as {
    handler: StreamingHandler;
  });
}

export function unloadEntry(): void {
  restore();
}

function codeOf(body: string): number | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    const first = (Array.isArray(value) ? value[0] : value) as { error?: { code?: unknown } } | undefined;
    return typeof first?.error?.code === 'number' ? first.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** Invokes the entry with `event` and returns the relayed answer (a broken prelude is API Gateway's 502). */
export async function invoke(event: APIGatewayProxyEvent): Promise<Answer> {
  if (handler === undefined) throw new Error('loadEntry() first');
  const stream = new FakeResponseStream();
  const entry = handler;
  const { lines: logLines } = await withLogLines(() => entry(event, stream, lambdaContext()));
  try {
    const { prelude, body } = parseStreamedResponse(stream.bytes());
    return { status: prelude.statusCode, code: codeOf(body), headers: prelude.headers ?? {}, body, logLines };
  } catch {
    return {
      status: 502,
      code: undefined,
      headers: {},
      body: '{"message":"Internal server error"}',
      logLines,
    };
  }
}

/** A POST whose body is `text` (or exact bytes, sent base64 as for a binary media type). */
export function postEvent(
  body: string | Buffer,
  headers: Record<string, string> = {},
  overrides: Partial<APIGatewayProxyEvent> = {},
): APIGatewayProxyEvent {
  const bytes = typeof body !== 'string';
  return restEvent({
    headers: { ...POST_HEADERS, ...headers },
    body: bytes ? body.toString('base64') : body,
    isBase64Encoded: bytes,
    ...overrides,
  });
}

/** A JSON-RPC message as JSON text. */
export function rpc(id: number | string | undefined, method: string, params?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    ...(id !== undefined && { id }),
    method,
    ...(params !== undefined && { params }),
  });
}

/** `_meta` every 2026-07-28 request carries. */
export const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Headers a correct 2026-07-28 client sends. */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'MCP-Protocol-Version': MODERN,
    'Mcp-Method': method,
    ...(name !== undefined && { 'Mcp-Name': name }),
  };
}

/** Opens a session at `version` and returns the headers of requests inside it. */
export async function session(version: string): Promise<Record<string, string>> {
  const answer = await invoke(
    postEvent(
      rpc(0, 'initialize', {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: 'h', version: '1' },
      }),
    ),
  );
  const id = answer.headers['mcp-session-id'];
  if (id === undefined) throw new Error(`initialize failed: ${answer.status} ${answer.body}`);
  return { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': version };
}
