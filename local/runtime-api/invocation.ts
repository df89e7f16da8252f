/**
 * One invocation's life in the local Lambda: queued → running (handed to a runtime by `/next`) → responding
 * (the runtime's `/response` body is flowing) → settled. Exactly one terminal outcome wins.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { InvocationError } from './errors.js';
import { ResponseBody } from './response-body.js';

/** What an invoker receives once the function starts answering. */
export interface InvocationResponse {
  /** `Lambda-Runtime-Aws-Request-Id` of the invocation. */
  requestId: string;
  /** `streaming` for `awslambda.streamifyResponse` handlers, `buffered` for plain ones. */
  mode: 'streaming' | 'buffered';
  /** Content type the function set, `application/vnd.awslambda.http-integration-response` after `HttpResponseStream.from`. */
  contentType: string;
  /**
   * The bytes the function writes, as they arrive (the writes that reached us in one event-loop turn come as
   * one buffer, see {@link ResponseBody}), with backpressure back to the function. Ends when the
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
  #body: ResponseBody | undefined;
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
    const body = new ResponseBody(req, res, () => this.#settle());
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
    else body.fail(error);
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
