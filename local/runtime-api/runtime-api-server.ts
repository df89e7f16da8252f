/**
 * The Lambda Runtime API (version 2018-06-01) as one execution environment sees it. Routing and HTTP details
 * only; what an invocation does is decided by {@link RuntimeApiHandlers}.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { parseErrorDocument } from './errors.js';

const PREFIX = '/2018-06-01/runtime';
const INVOCATION_ROUTE = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/;
/** Error documents are small; Lambda caps them with the 6 MB payload limit, we cap far lower. */
const MAX_ERROR_DOCUMENT_BYTES = 256 * 1024;

/** Result of handing a runtime's post to an invocation. */
export type PostOutcome = 'accepted' | 'unknown_request' | 'invalid_state';

/** What the environment behind this server does with each Runtime API call. */
export interface RuntimeApiHandlers {
  /** `GET /invocation/next`: answer `res` now, or park it until an invocation is queued (long poll). */
  next(res: ServerResponse): void;
  /** `POST /invocation/{id}/response`: the body flows to the invoker; the handler answers `res` when done. */
  response(requestId: string, req: IncomingMessage, res: ServerResponse): PostOutcome;
  /** `POST /invocation/{id}/error`. */
  error(requestId: string, failure: { errorType: string; errorMessage: string }): PostOutcome;
  /** `POST /runtime/init/error`: the function could not be loaded. */
  initError(failure: { errorType: string; errorMessage: string }): void;
}

/** Creates the HTTP server of one environment's Runtime API (not yet listening). */
export function createRuntimeApiServer(handlers: RuntimeApiHandlers): Server {
  const server = createServer((req, res) => route(handlers, req, res));
  // The runtime's `/next` is a long poll and a streamed `/response` may last 15 minutes: no server timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 0;
  return server;
}

function route(handlers: RuntimeApiHandlers, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '').split('?')[0] ?? '';
  if (req.method === 'GET' && path === `${PREFIX}/invocation/next`) {
    handlers.next(res);
    return;
  }
  if (req.method === 'POST' && path === `${PREFIX}/init/error`) {
    void readErrorDocument(req).then((failure) => {
      handlers.initError(failure);
      answer(res, 'accepted');
    });
    return;
  }
  const match = INVOCATION_ROUTE.exec(path);
  if (req.method === 'POST' && match !== null) {
    const requestId = decodeURIComponent(match[1] ?? '');
    if (match[2] === 'response') {
      const outcome = handlers.response(requestId, req, res);
      if (outcome !== 'accepted') {
        req.resume();
        answer(res, outcome);
      }
      return;
    }
    void readErrorDocument(req).then((failure) => answer(res, handlers.error(requestId, failure)));
    return;
  }
  req.resume();
  sendJson(res, 404, { errorType: 'InvalidRequest', errorMessage: 'unknown Runtime API route' });
}

/** Answers a runtime post the way the Runtime API does (202 accepted, 400/403 otherwise). */
function answer(res: ServerResponse, outcome: PostOutcome): void {
  if (outcome === 'accepted') sendJson(res, 202, { status: 'OK' });
  else if (outcome === 'unknown_request') {
    sendJson(res, 400, { errorType: 'InvalidRequestID', errorMessage: 'invalid request id' });
  } else
    sendJson(res, 403, { errorType: 'InvalidStateTransition', errorMessage: 'invocation already answered' });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Reads a posted error document. Its type may also come in the `Lambda-Runtime-Function-Error-Type` header,
 * which wins over the body, as in the Runtime API reference.
 */
async function readErrorDocument(req: IncomingMessage): Promise<{ errorType: string; errorMessage: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size <= MAX_ERROR_DOCUMENT_BYTES) chunks.push(chunk);
    }
  } catch {
    // A runtime that died mid-post still failed; report what arrived.
  }
  const headerType = req.headers['lambda-runtime-function-error-type'];
  const document = parseErrorDocument(Buffer.concat(chunks).toString('utf8'), 'Runtime.Unknown');
  return typeof headerType === 'string' && headerType !== ''
    ? { ...document, errorType: headerType }
    : document;
}
