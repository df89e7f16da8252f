/**
 * A small bridge from `node:http` to a fetch-style handler `(Request, McpInvocationContext) => Response`.
 *
 * It is the local stand-in for the REST v1 streaming adapter: the runtime sees the same web-standard
 * `Request` it gets in Lambda, and its `ReadableStream` body is written chunk by chunk with backpressure,
 * so SSE reaches the client incrementally (DESIGN §3 step 4). Used by the conformance app, the SDK-client
 * integration test and the runtime benchmark.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpInvocationContext } from '../lambda/mcp/types/index.js';
import { log } from './log.js';

/** A fetch-style handler, the shape of `McpServer.handle`. */
export type FetchHandler = (request: Request, ctx: McpInvocationContext) => Promise<Response>;

export interface ServeNodeOptions {
  /** Port to bind; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Called with a one-line description of failures that never reach the client. @default JSON line on stderr */
  onError?: (message: string, fields: Record<string, unknown>) => void;
}

export interface NodeServerHandle {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  port: number;
  /** Stops accepting connections, ends idle keep-alive sockets and resolves once the server is closed. */
  close(): Promise<void>;
}

/** The only body a client ever sees when the handler itself fails: no stack, no exception text. */
const INTERNAL_ERROR_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: { code: -32603, message: 'Internal error' },
});

/** Starts an HTTP server that serves every request through `handler`. */
export async function serveNode(
  handler: FetchHandler,
  options: ServeNodeOptions = {},
): Promise<NodeServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const onError = options.onError ?? logToStderr;
  let origin = '';
  const server = createServer((req, res) => {
    void serveOne(handler, origin, req, res, onError);
  });
  // Long SSE responses must not be cut by Node's default request timeout (300 s since Node 18).
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5_000;
  await listen(server, options.port ?? 0, host);
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { url: origin, port, close: () => closeServer(server) };
}

async function serveOne(
  handler: FetchHandler,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
  onError: NonNullable<ServeNodeOptions['onError']>,
): Promise<void> {
  const aborter = new AbortController();
  // 'close' on the response fires when the socket goes away; if the response had not finished by then,
  // the client disconnected and in-flight work must be told (DESIGN §3 step 5).
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  const ctx: McpInvocationContext = {
    requestId: randomUUID(),
    signal: aborter.signal,
    sourceIp: req.socket.remoteAddress,
  };
  let response: Response;
  try {
    response = await handler(toRequest(origin, req), ctx);
  } catch (error) {
    onError('handler threw', { requestId: ctx.requestId, error: describe(error) });
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(INTERNAL_ERROR_BODY);
    }
    return;
  }
  try {
    await writeResponse(response, res, aborter.signal);
  } catch (error) {
    onError('response stream failed', { requestId: ctx.requestId, error: describe(error) });
    // Bytes may already be out; the only honest signal left is to cut the connection.
    res.destroy();
  }
}

/**
 * Builds the web `Request`: method, URL, every header (duplicates kept) and a streamed body. A client's
 * disconnect reaches the runtime as `ctx.signal`, as in Lambda; nothing reads `request.signal`, and giving
 * the `Request` one costs undici a follower signal and its listeners on every request.
 */
function toRequest(origin: string, req: IncomingMessage): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // The URL uses our own origin: a Host header is client input (DNS rebinding) and stays a header.
  // IncomingMessage is an async iterable of Buffers; undici streams it without buffering. `duplex` is
  // required for streamed bodies but missing from the DOM RequestInit type.
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (hasBody) {
    init.body = req as unknown as BodyInit;
    init.duplex = 'half';
  }
  return new Request(origin + (req.url ?? '/'), init);
}

/** Writes status, headers and the body; resolves when the response has ended. */
async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (response.body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!isEventStream(response)) {
    // A JSON answer is whole in memory already: one write with its length, rather than a chunked body read
    // chunk by chunk through the web stream and ended by a second write.
    const body = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers).end(body);
    return;
  }
  res.writeHead(response.status, headers);
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      // Cork so a body that ends in the same tick leaves in one packet; uncork on the next tick so an
      // SSE frame is never held back waiting for the next one.
      res.cork();
      const flushed = res.write(value);
      process.nextTick(() => res.uncork());
      if (!flushed) await drained(res);
    }
    // Node 22's end() drops a chunk still corked in the response's chunked buffer: flush it first.
    while (res.writableCorked > 0) res.uncork();
    if (!res.destroyed) res.end();
  } finally {
    signal.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}

/** SSE is written as it comes; anything else is a bounded body the handler has already built. */
function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
}

/** Resolves on 'drain' or when the socket closes (then the abort signal cancels the body). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Idle keep-alive sockets would hold close() open; streams still running are ended too.
    server.closeAllConnections();
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function logToStderr(message: string, fields: Record<string, unknown>): void {
  log('error', message, { source: 'node-http', ...fields });
}
