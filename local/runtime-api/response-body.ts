/**
 * The body of a runtime's `/response` post as the invoker reads it: the bytes the function writes, passed on
 * as they arrive, with backpressure back to the function and the Runtime API answer given at the right time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { InvocationError, parseErrorDocument } from './errors.js';

/** Streaming responses carry their failure in these trailers (RIC `src/stream/constants.ts`). */
const TRAILER_ERROR_TYPE = 'lambda-runtime-function-error-type';
const TRAILER_ERROR_BODY = 'lambda-runtime-function-error-body';

/** Bytes gathered from the runtime before they are passed on without waiting for the end of the turn. */
export const MAX_BATCH_BYTES = 64 * 1024;

/**
 * The runtime client sends every `write()` of the function as its own HTTP chunk, and Node's parser emits each
 * chunk as its own `data` event (running the tick queue in between), so a burst of small writes arrives as
 * hundreds of events from one socket read. They are gathered and pushed as one buffer from `setImmediate`,
 * which runs once the I/O of the current event-loop turn has been handled: no timer, nothing waits for later
 * bytes, and at most {@link MAX_BATCH_BYTES} are held before they are pushed anyway. While the invoker is
 * behind (`push` returns false) the request is paused, so its socket stops being read and the function's
 * `write()` sees backpressure.
 *
 * Destroying the body (the invoker went away) answers the runtime and closes its connection, which the
 * function sees as `close` on its response stream.
 */
export class ResponseBody extends Readable {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #onSettled: () => void;
  /** The runtime finished its post (with or without error trailers). */
  #finished = false;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #flushQueued = false;

  /** `onSettled` runs once the post is over: ended, failed, or closed by the invoker. */
  constructor(req: IncomingMessage, res: ServerResponse, onSettled: () => void) {
    super();
    this.#req = req;
    this.#res = res;
    this.#onSettled = onSettled;
    req.on('data', this.#onData);
    req.on('end', this.#onEnd);
    req.on('close', this.#onClose);
  }

  /** Ends the body with `error` after passing on what already arrived (the invoker then cuts its client). */
  fail(error: Error): void {
    if (this.destroyed) return;
    this.#flush();
    this.destroy(error);
  }

  override _read(): void {
    this.#req.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#pending = [];
    if (!this.#finished) closeFunctionStream(this.#req, this.#res);
    this.#onSettled();
    callback(error);
  }

  readonly #onData = (chunk: Buffer): void => {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.byteLength;
    if (this.#pendingBytes >= MAX_BATCH_BYTES) this.#flush();
    else if (!this.#flushQueued) {
      this.#flushQueued = true;
      setImmediate(this.#flush);
    }
  };

  readonly #flush = (): void => {
    this.#flushQueued = false;
    const pending = this.#pending;
    if (pending.length === 0 || this.destroyed) return;
    const batch = pending.length === 1 ? pending[0]! : Buffer.concat(pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (!this.push(batch)) this.#req.pause();
  };

  readonly #onEnd = (): void => {
    this.#finished = true;
    // The invoker may have dropped the body first (client disconnect): closeFunctionStream already answered.
    const res = this.#res;
    if (!res.headersSent) res.writeHead(202, { 'Content-Type': 'application/json' }).end('{"status":"OK"}');
    const failure = trailerError(this.#req);
    this.#onSettled();
    if (failure !== undefined) this.fail(failure);
    else if (!this.destroyed) {
      this.#flush();
      this.push(null);
    }
  };

  readonly #onClose = (): void => {
    if (!this.#finished) {
      this.fail(
        new InvocationError('runtime_exit', 'Runtime.ExitError', 'runtime closed the response stream'),
      );
    }
  };
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
