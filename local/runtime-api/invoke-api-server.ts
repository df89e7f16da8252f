/**
 * The Lambda Invoke API (`POST /2015-03-31/functions/{name}/invocations`) of the local function, so code in
 * the function can invoke it the way it does when deployed, with `@aws-sdk/client-lambda` pointed here by
 * `AWS_ENDPOINT_URL_LAMBDA` (the task worker's asynchronous self-invoke, docs/tasks.md). Each invocation
 * is a fresh one on a runtime from the pool, exactly like an API Gateway request.
 *
 * - `X-Amz-Invocation-Type: Event` answers 202 once the event is accepted and runs it in the background.
 *   Like Lambda's internal queue, a throttled event is retried with backoff until `maxEventAgeMs`.
 * - `RequestResponse` (the default) waits for the function and answers 200 with its payload, or with
 *   `X-Amz-Function-Error: Unhandled` and the error document.
 * - `DryRun` answers 204.
 * Request signing is not checked (as DynamoDB Local does not check it).
 */
import { once } from 'node:events';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeError, log } from '../log.js';
import { InvocationError } from './errors.js';
import type { InvocationResponse } from './invocation.js';

const ROUTE = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
/** Lambda's payload quotas: 1 MB for asynchronous invocations, 6 MB for synchronous ones. */
const MAX_EVENT_BYTES = 1024 * 1024;
const MAX_REQUEST_RESPONSE_BYTES = 6 * 1024 * 1024;

/** Options of {@link startInvokeApi}. */
export interface InvokeApiOptions {
  /** The one function served; a name or ARN naming another answers 404 `ResourceNotFoundException`. */
  functionName: string;
  /** Starts one invocation of the function (`RuntimePool.invoke` fits). */
  invoke(event: unknown): Promise<InvocationResponse>;
  /** @default '127.0.0.1' */
  host?: string;
  /** How long a throttled `Event` invocation keeps being retried. @default 60000 */
  maxEventAgeMs?: number;
}

/** A running Invoke API. */
export interface InvokeApi {
  /** `http://127.0.0.1:<port>`: the value of the function's `AWS_ENDPOINT_URL_LAMBDA`. */
  url: string;
  /** `Event` invocations accepted and not finished yet. */
  readonly inFlight: number;
  close(): Promise<void>;
}

/** Starts the Invoke API on a free port. */
export async function startInvokeApi(options: InvokeApiOptions): Promise<InvokeApi> {
  const background = new Set<Promise<void>>();
  let closed = false;
  const server: Server = createServer((req, res) => {
    void route(options, req, res, (event) => {
      const run = runEvent(options, event, () => closed).finally(() => background.delete(run));
      background.add(run);
    }).catch((error: unknown) => {
      log('error', 'invoke API failed a request', { error: describeError(error) });
      if (!res.headersSent) sendError(res, 500, 'ServiceException', 'internal error');
    });
  });
  server.listen(0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    get inFlight() {
      return background.size;
    },
    close: async () => {
      closed = true;
      server.closeAllConnections();
      server.close();
      await Promise.allSettled([...background]);
    },
  };
}

async function route(
  options: InvokeApiOptions,
  req: IncomingMessage,
  res: ServerResponse,
  enqueue: (event: unknown) => void,
): Promise<void> {
  const match = ROUTE.exec((req.url ?? '').split('?')[0] ?? '');
  if (req.method !== 'POST' || match === null) {
    req.resume();
    sendError(res, 404, 'UnknownOperationException', 'unknown operation');
    return;
  }
  if (!namesFunction(decodeURIComponent(match[1] ?? ''), options.functionName)) {
    req.resume();
    sendError(res, 404, 'ResourceNotFoundException', 'Function not found');
    return;
  }
  const type = headerText(req, 'x-amz-invocation-type') ?? 'RequestResponse';
  if (type !== 'Event' && type !== 'RequestResponse' && type !== 'DryRun') {
    req.resume();
    sendError(res, 400, 'InvalidParameterValueException', 'unknown invocation type');
    return;
  }
  const body = await readLimited(req, type === 'Event' ? MAX_EVENT_BYTES : MAX_REQUEST_RESPONSE_BYTES);
  if (body === undefined) {
    sendError(res, 413, 'RequestTooLargeException', 'Request must be smaller than the payload quota');
    return;
  }
  let event: unknown;
  try {
    event = body.length === 0 ? {} : (JSON.parse(body.toString('utf8')) as unknown);
  } catch {
    sendError(res, 400, 'InvalidRequestContentException', 'Could not parse request body into json');
    return;
  }
  if (type === 'DryRun') {
    res.writeHead(204).end();
    return;
  }
  if (type === 'Event') {
    enqueue(event);
    res.writeHead(202, { 'Content-Length': '0' }).end();
    return;
  }
  await requestResponse(options, event, res);
}

/** A synchronous invocation: the function's whole answer, or its error document. */
async function requestResponse(options: InvokeApiOptions, event: unknown, res: ServerResponse): Promise<void> {
  try {
    const response = await options.invoke(event);
    const chunks: Buffer[] = [];
    for await (const chunk of response.body as AsyncIterable<Buffer>) chunks.push(chunk);
    res
      .writeHead(200, { 'Content-Type': 'application/json', 'X-Amz-Executed-Version': '$LATEST' })
      .end(Buffer.concat(chunks));
  } catch (error) {
    if (error instanceof InvocationError && error.code === 'throttled') {
      sendError(res, 429, 'TooManyRequestsException', 'Rate Exceeded.');
      return;
    }
    const errorType = error instanceof InvocationError ? error.errorType : 'Runtime.Unknown';
    const errorMessage = error instanceof Error ? error.message : 'unknown error';
    res
      .writeHead(200, {
        'Content-Type': 'application/json',
        'X-Amz-Executed-Version': '$LATEST',
        'X-Amz-Function-Error': 'Unhandled',
      })
      .end(JSON.stringify({ errorType, errorMessage }));
  }
}

/**
 * Runs an accepted event to its end (the answer is read and dropped, as Lambda does). A throttled one is
 * retried with backoff, as Lambda's queue does; any other failure is logged and not retried, which is what
 * a function configured with `retryAttempts: 0` gets.
 */
async function runEvent(options: InvokeApiOptions, event: unknown, closed: () => boolean): Promise<void> {
  const giveUpAt = Date.now() + (options.maxEventAgeMs ?? 60_000);
  for (let attempt = 0; !closed(); attempt += 1) {
    try {
      const response = await options.invoke(event);
      for await (const chunk of response.body as AsyncIterable<Buffer>) void chunk;
      return;
    } catch (error) {
      const throttled = error instanceof InvocationError && error.code === 'throttled';
      if (!throttled || Date.now() >= giveUpAt) {
        if (!closed()) log('warn', 'asynchronous invocation failed', { error: describeError(error) });
        return;
      }
      await sleep(Math.min(1000, 50 * 2 ** attempt));
    }
  }
}

/** Whether a `FunctionName` (name, partial or full ARN, optionally qualified) names `functionName`. */
function namesFunction(value: string, functionName: string): boolean {
  const parts = value.split(':');
  if (parts.length === 1) return value === functionName;
  const index = parts.indexOf('function');
  const name = index >= 0 ? parts[index + 1] : parts[0];
  return name === functionName;
}

function headerText(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The body, or undefined once it is larger than `limit` (the rest is drained). */
async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? undefined : Buffer.concat(chunks);
}

/** An AWS JSON error: the SDK reads its code from `x-amzn-ErrorType`. */
function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  if (res.headersSent || res.destroyed) return;
  res
    .writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type })
    .end(JSON.stringify({ Type: 'User', message }));
}
