/**
 * One invocation's life in the local Lambda: queued → running (handed to a runtime by `/next`) → responding
 * (the runtime's `/response` body is flowing) → settled. Exactly one terminal outcome wins.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { InvocationError, parseErrorDocument } from './errors.js';

/** Streaming responses carry their failure in these trailers (RIC `src/stream/constants.ts`). */
const TRAILER_ERROR_TYPE = 'lambda-runtime-function-error-type';
const TRAILER_ERROR_BODY = 'lambda-runtime-function-error-body';

/** What an invoker receives once the function starts answering. */
export interface InvocationResponse {
  /** `Lambda-Runtime-Aws-Request-Id` of the invocation. */
  requestId: string;
  /** `streaming` for `awslambda.streamifyResponse` handlers, `buffered` for plain ones. */
  mode: 'streaming' | 'buffered';
  /** Content type the function set, `application/vnd.awslambda.http-integration-response` after `HttpResponseStream.from`. */
  contentType: string;
  /**
   * The bytes the function writes, chunk by chunk, with backpressure back to the function. Ends when the
   * function ends its stream; is destroyed with an {@link InvocationError} when the function fails, times out
   * or its runtime dies. Destroying it closes the function's response stream, which the function sees.
   */
  body: Readable;
}

type Phase = 'queued' | 'running' | 'responding' | 'settled';

/** Internal record of one invocation, driven by the pool and the Runtime API server. */
export class Invocation {
  readonly requestId = randomUUID();
  readonly payload: string;
  /** Resolves when the function starts answering; rejects when it fails first. Never both. */
  readonly response: Promise<InvocationResponse>;
  #phase: Phase = 'queued';
  #resolve!: (response: InvocationResponse) => void;
  #reject!: (error: InvocationError) => void;
  #body: Readable | undefined;
  /** The invoker went away while the function was running: close its stream as soon as it answers. */
  #abandoned = false;

  constructor(event: unknown) {
    this.payload = JSON.stringify(event ?? null);
    this.response = new Promise<InvocationResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // The invoker may stop listening (e.g. it was aborted); a late rejection must not crash the process.
    this.response.catch(() => undefined);
  }

  get phase(): Phase {
    return this.#phase;
  }

  /** Marks the invocation as delivered to a runtime by `/next`. */
  start(): void {
    if (this.#phase === 'queued') this.#phase = 'running';
  }

  /**
   * Hands the runtime's `/response` request to the invoker as the response body. Returns false when the
   * invocation is no longer waiting for a response (the Runtime API then rejects the post).
   */
  respond(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.#phase !== 'running') return false;
    this.#phase = 'responding';
    const streaming = req.headers['lambda-runtime-function-response-mode'] === 'streaming';
    const body = relayBody(req, res, () => this.#settle());
    this.#body = body;
    if (this.#abandoned) {
      body.destroy();
      return true;
    }
    this.#resolve({
      requestId: this.requestId,
      mode: streaming ? 'streaming' : 'buffered',
      contentType: req.headers['content-type'] ?? 'application/json',
      body,
    });
    return true;
  }

  /** Ends the invocation with a failure: rejects the invoker, or breaks the body if it already flows. */
  fail(error: InvocationError): void {
    if (this.#phase === 'settled') return;
    const body = this.#body;
    this.#settle();
    if (body === undefined) this.#reject(error);
    else if (!body.destroyed) body.destroy(error);
  }

  /**
   * The invoker stops waiting. A queued invocation ends here; a running one keeps running (a function cannot be
   * stopped from outside, as on Lambda) and its response stream is closed as soon as it starts.
   */
  abandon(): void {
    if (this.#phase === 'queued') {
      this.fail(
        new InvocationError('aborted', 'Invoke.Aborted', 'invoker went away before the invocation started'),
      );
    } else if (this.#phase === 'running') {
      this.#abandoned = true;
      this.#reject(
        new InvocationError('aborted', 'Invoke.Aborted', 'invoker went away before the function answered'),
      );
    } else if (this.#body !== undefined && !this.#body.destroyed) this.#body.destroy();
  }

  #settle(): void {
    this.#phase = 'settled';
  }
}

/**
 * Turns the runtime's `/response` request into the invoker's body: each chunk is pushed as it arrives, and the
 * runtime's socket is paused while the invoker is behind (backpressure reaches the function's `write()`).
 */
function relayBody(req: IncomingMessage, res: ServerResponse, settle: () => void): Readable {
  let finished = false;
  const body = new Readable({
    read() {
      req.resume();
    },
    destroy(error, callback) {
      if (!finished) closeFunctionStream(req, res);
      settle();
      callback(error);
    },
  });
  req.on('data', (chunk: Buffer) => {
    if (!body.destroyed && !body.push(chunk)) req.pause();
  });
  req.on('end', () => {
    finished = true;
    // The invoker may have dropped the body first (client disconnect): closeFunctionStream already answered.
    if (!res.headersSent) res.writeHead(202, { 'Content-Type': 'application/json' }).end('{"status":"OK"}');
    const failure = trailerError(req);
    settle();
    if (failure !== undefined) body.destroy(failure);
    else body.push(null);
  });
  req.on('close', () => {
    if (!finished && !body.destroyed) {
      body.destroy(
        new InvocationError('runtime_exit', 'Runtime.ExitError', 'runtime closed the response stream'),
      );
    }
  });
  return body;
}

/** The failure a streamed response declared in its trailers, if any. */
function trailerError(req: IncomingMessage): InvocationError | undefined {
  const errorType = req.trailers[TRAILER_ERROR_TYPE];
  if (errorType === undefined) return undefined;
  const encoded = req.trailers[TRAILER_ERROR_BODY] ?? '';
  const document = parseErrorDocument(Buffer.from(encoded, 'base64').toString('utf8'), errorType);
  return new InvocationError('function_error', document.errorType, document.errorMessage);
}

/**
 * Closes the function's response stream while it is still writing. The runtime client rejects an unhandled
 * promise (and its process dies) if its socket is reset before it has an HTTP answer, so we answer first, then
 * half-close and keep draining: the client sees the answer, then the end of the connection, and its
 * `responseStream` emits `close` to the handler.
 */
function closeFunctionStream(req: IncomingMessage, res: ServerResponse): void {
  req.removeAllListeners('data');
  req.resume();
  if (!res.headersSent) {
    // No `Connection: close`: Node would then destroy the socket, and a reset can overtake the answer.
    res.writeHead(202, { 'Content-Type': 'application/json' });
    res.end('{"status":"OK"}', () => req.socket.end());
  }
}
