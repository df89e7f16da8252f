/**
 * The local API Gateway REST v1 front: a `node:http` server that turns each request into a proxy event,
 * invokes the function with response streaming, and relays the answer as a STREAM-mode integration does.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describeError, log } from '../log.js';
import { type CompletionRecord, completionNotice, sendCompletion } from './completion.js';
import {
  MAX_EVENT_BYTES,
  MAX_REQUEST_BYTES,
  MAX_STREAMED_RESPONSE_BYTES,
  eventPayloadBytes,
  sendEventTooLarge,
  sendRequestTooLarge,
} from './limits.js';
import { readPrelude } from './prelude.js';
import { buildProxyEvent, requestTarget } from './proxy-event.js';
import { type ClientLossMode, type StreamShaping, functionSettled, relayPayload } from './relay.js';
import { PLATFORM_ROUTES, type RestRoute, matchRoute } from './routes.js';

/** The function as the front sees it (`RuntimePool` fits). */
export interface FunctionInvoker {
  /** Invokes with a proxy event, or with API Gateway's completion notice after a streamed response. */
  invoke(event: APIGatewayProxyEvent | object, options: { signal: AbortSignal }): Promise<{ body: Readable }>;
}

/** Options of {@link startRestFront}. */
export interface RestFrontOptions {
  invoker: FunctionInvoker;
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 0 */
  port?: number;
  /** Stage name put in `requestContext.stage` (the local URL has no stage segment). @default 'local' */
  stage?: string;
  /** @default PLATFORM_ROUTES */
  routes?: readonly RestRoute[];
  /** Silence allowed between two chunks (API Gateway Regional: 5 min). @default 300000 */
  idleTimeoutMs?: number;
  /** Longest response, prelude wait included (API Gateway STREAM: 15 min). @default 900000 */
  maxDurationMs?: number;
  /**
   * Longest time to receive a whole request, headers and body; past it the client gets 408 and the
   * connection is closed, and the function is never invoked (docs/local-stack.md "Request time").
   * @default `idleTimeoutMs` (API Gateway Regional: 5 min)
   */
  requestTimeoutMs?: number;
  /** Largest request body (API Gateway: 10 MB). @default 10485760 */
  maxRequestBytes?: number;
  /** Largest proxy event as JSON (Lambda's invocation payload: 6 MB). @default 6291456 */
  maxEventBytes?: number;
  /** Largest streamed response payload (Lambda: 200 MB). @default 209715200 */
  maxResponseBytes?: number;
  /** Bandwidth cap of streamed responses (Lambda: 2 MBps past the first 6 MB). @default none */
  shaping?: StreamShaping;
  /**
   * What the function's response stream sees when the client goes away or a limit cuts it: nothing
   * (`keep-running`, as on AWS) or a closed stream (`close-stream`, the emulator mode). @default 'keep-running'
   */
  onClientLoss?: ClientLossMode;
  /** Send API Gateway's completion invocation after each streamed response. @default true */
  completionInvocations?: boolean;
  /** Called with the result of each completion invocation (tests). */
  onCompletion?: (record: CompletionRecord) => void;
  /** Allowed browser origins for the CORS preflight API Gateway answers itself. @default [] */
  allowedOrigins?: readonly string[];
}

/** A running front. */
export interface RestFront {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** Starts the front and resolves once it listens. */
export async function startRestFront(options: RestFrontOptions): Promise<RestFront> {
  const settings = {
    invoker: options.invoker,
    stage: options.stage ?? 'local',
    routes: options.routes ?? PLATFORM_ROUTES,
    idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
    maxDurationMs: options.maxDurationMs ?? 900_000,
    requestTimeoutMs: options.requestTimeoutMs ?? options.idleTimeoutMs ?? 300_000,
    maxRequestBytes: options.maxRequestBytes ?? MAX_REQUEST_BYTES,
    maxEventBytes: options.maxEventBytes ?? MAX_EVENT_BYTES,
    maxResponseBytes: options.maxResponseBytes ?? MAX_STREAMED_RESPONSE_BYTES,
    shaping: options.shaping,
    onClientLoss: options.onClientLoss ?? 'keep-running',
    completionInvocations: options.completionInvocations ?? true,
    onCompletion: options.onCompletion ?? (() => undefined),
    allowedOrigins: options.allowedOrigins ?? [],
  };
  const { requestTimeoutMs } = settings;
  const server = createServer(
    {
      noDelay: true,
      // Receiving the request is bounded; once it is in, the response may stream for 15 minutes (the
      // front's own limits apply to it). Node checks the bound on this interval, so it follows the bound.
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(requestTimeoutMs / 4))),
    },
    (req, res) => {
      void handle(settings, req, res).catch((error: unknown) => {
        // A request whose body never completed (Node answered 408 at `requestTimeout`, or the client left):
        // nobody is waiting for an answer, and nothing failed on our side.
        if (req.readableAborted) {
          res.destroy();
          return;
        }
        log('error', 'rest front failed a request', { error: describeError(error) });
        if (!res.headersSent)
          sendGatewayError(res, 502, 'Internal server error', 'InternalServerErrorException');
        else res.destroy();
      });
    },
  );
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    port: address.port,
    server,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

type Settings = Required<Omit<RestFrontOptions, 'host' | 'port' | 'shaping'>> & {
  shaping: StreamShaping | undefined;
};

async function handle(settings: Settings, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const receivedAt = new Date();
  const deadline = receivedAt.getTime() + settings.maxDurationMs;
  const requestId = randomUUID();
  res.setHeader('x-amzn-RequestId', requestId);
  const path = requestTarget(req.url).pathname;
  const match = matchRoute(settings.routes, req.method ?? 'GET', path);
  if (match.kind === 'none') {
    req.resume();
    sendGatewayError(res, 403, 'Missing Authentication Token', 'MissingAuthenticationTokenException');
    return;
  }
  if (match.kind === 'preflight') {
    req.resume();
    sendPreflight(req, res, match.route, settings.allowedOrigins);
    return;
  }
  const body = await readRequestBody(req, settings.maxRequestBytes);
  if (body === undefined) {
    sendRequestTooLarge(res, settings.maxRequestBytes);
    return;
  }
  const event = buildProxyEvent(req, body, {
    resource: match.route.resource,
    stage: settings.stage,
    requestId,
    receivedAt,
  });
  if (eventPayloadBytes(event) > settings.maxEventBytes) {
    sendEventTooLarge(res);
    return;
  }
  const controller = new AbortController();
  // On AWS a client that leaves before the answer changes nothing for the invocation; the emulator mode
  // abandons it (its stream is closed as soon as it answers).
  const onClientGone = (): void => {
    if (!res.writableFinished && settings.onClientLoss === 'close-stream') controller.abort();
  };
  res.once('close', onClientGone);
  // Until the first byte, silence counts against the idle timeout too (and the total limit always applies).
  const invoked = settings.invoker.invoke(event, { signal: controller.signal });
  let payload: Readable;
  try {
    ({ body: payload } = await withTimeout(invoked, Math.min(settings.idleTimeoutMs, deadline - Date.now())));
  } catch (error) {
    if (error instanceof TimeoutError) {
      // API Gateway gives up; the function does not know (emulator mode: it is abandoned instead).
      if (settings.onClientLoss === 'close-stream') controller.abort();
      else
        void invoked.then(
          ({ body: late }) => late.resume(),
          () => undefined,
        );
    }
    return failBeforePrelude(res, controller.signal, error);
  }
  // Errors are observed through `errored`/listeners below; this keeps an early one from going unhandled.
  payload.on('error', () => undefined);
  res.off('close', onClientGone);
  const settled = functionSettled(payload);
  if (settings.completionInvocations) {
    void settled.then(async (end) => {
      settings.onCompletion(await sendCompletion(settings.invoker, completionNotice(requestId, end)));
    });
  }
  if (res.destroyed) {
    if (settings.onClientLoss === 'close-stream') payload.destroy();
    else payload.resume();
    return;
  }
  let prelude;
  try {
    prelude = await withTimeout(
      readPrelude(payload),
      Math.min(settings.idleTimeoutMs, deadline - Date.now()),
    );
  } catch (error) {
    if (settings.onClientLoss === 'close-stream' || payload.errored !== null) payload.destroy();
    else payload.resume();
    return failBeforePrelude(res, controller.signal, error);
  }
  res.statusCode = prelude.statusCode;
  for (const [name, value] of prelude.headers) {
    // Framing is the front's business: the payload length is unknown and the connection is ours.
    if (/^(content-length|transfer-encoding|connection|keep-alive)$/i.test(name)) continue;
    res.appendHeader(name, value);
  }
  res.flushHeaders();
  const outcome = await relayPayload(payload, res, {
    idleTimeoutMs: settings.idleTimeoutMs,
    deadline,
    onClientLoss: settings.onClientLoss,
    maxResponseBytes: settings.maxResponseBytes,
    ...(settings.shaping === undefined ? {} : { shaping: settings.shaping }),
  });
  if (outcome !== 'completed' && outcome !== 'client_gone') {
    log('warn', 'stream aborted', { requestId, outcome, error: describeError(payload.errored) });
  }
}

/** 502 (or 504 for our own time limit) when the function fails before a valid prelude; nothing if the client left. */
function failBeforePrelude(res: ServerResponse, signal: AbortSignal, error: unknown): void {
  if (res.destroyed) return;
  if (error instanceof TimeoutError || signal.aborted) {
    sendGatewayError(res, 504, 'Endpoint request timed out', 'IntegrationTimeoutException');
    return;
  }
  if (isThrottled(error)) {
    // Lambda rejected the invocation (TooManyRequestsException): API Gateway answers 500, not 429 — "If the
    // Lambda API rejects the invocation request, API Gateway returns a 500 error code" (Lambda developer
    // guide, "Handling Lambda errors with an API Gateway API"). 429 is only API Gateway's own throttling.
    log('warn', 'function throttled: concurrency limit reached', { error: describeError(error) });
    sendGatewayError(res, 500, 'Internal server error', 'InternalServerErrorException');
    return;
  }
  log('warn', 'function failed before the prelude', { error: describeError(error) });
  sendGatewayError(res, 502, 'Internal server error', 'InternalServerErrorException');
}

/** Lambda's throttling error (`InvocationError` code `throttled`, errorType `TooManyRequestsException`). */
function isThrottled(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'throttled';
}

/** API Gateway's own JSON error body, e.g. `{"message":"Missing Authentication Token"}`. */
function sendGatewayError(res: ServerResponse, status: number, message: string, errorType: string): void {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'x-amzn-ErrorType': errorType,
  });
  res.end(body);
}

/** The CORS preflight API Gateway's mock integration answers (CDK `addCorsPreflight`), without the function. */
function sendPreflight(
  req: IncomingMessage,
  res: ServerResponse,
  route: RestRoute,
  origins: readonly string[],
): void {
  const origin = req.headers.origin;
  const allowed = origin !== undefined && (origins.includes(origin) || origins.includes('*'));
  res.writeHead(204, {
    ...(allowed ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : {}),
    'Access-Control-Allow-Methods': [...route.methods, 'OPTIONS'].join(','),
    'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '',
    'Access-Control-Max-Age': '3600',
  });
  res.end();
}

/** Reads the whole request body (REST APIs do not stream requests), or `undefined` past the size limit. */
async function readRequestBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      req.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError('no prelude in time')), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
