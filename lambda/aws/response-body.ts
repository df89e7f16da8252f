/**
 * The body of a response as a Node `Readable` for the Lambda response stream. It is pull-based, so the
 * destination's backpressure (`write()` returning false, then 'drain') stops reads from the web stream.
 */
import { Readable } from 'node:stream';
import type { Logger } from '../mcp/index.js';
import { sseInternalErrorFrame } from './error-response.js';
import { errorFields } from './errors.js';

/** Options for {@link responseBodyReadable}. */
export interface ResponseBodyOptions {
  /** Whether the body is `text/event-stream` (a failure is then reported as an SSE error frame). */
  sse: boolean;
  /** Called once if the destination fails or closes before the body ended (client went away). */
  onAbort?: (reason: unknown) => void;
  logger?: Logger;
}

/** Node `Readable` over a response body, with the Lambda streaming rules built in. */
class ResponseBodyReadable extends Readable {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #options: ResponseBodyOptions;
  #primed = false;
  #ended = false;
  #tail = '\n\n';

  constructor(body: ReadableStream<Uint8Array> | null, options: ResponseBodyOptions) {
    // Object mode so the empty priming chunk is delivered as a real `write('')` (byte mode drops it).
    super({ objectMode: true, highWaterMark: 1 });
    this.#reader = body?.getReader();
    this.#options = options;
  }

  override _read(): void {
    if (!this.#primed) {
      // The runtime writes the prelude only on the first write(); without one a bodyless response (202)
      // never sends its status and API Gateway answers 502 (mcp-2026-notes §3.1). Writing '' first also
      // releases status and headers before a slow first event.
      this.#primed = true;
      this.push('');
      return;
    }
    if (this.#reader === undefined) return this.#finish();
    this.#reader.read().then(
      ({ done, value }) => {
        if (this.destroyed) return;
        if (done) return this.#finish();
        if (value.byteLength > 0)
          this.#tail = (this.#tail + Buffer.from(value.subarray(-2)).toString('latin1')).slice(-2);
        this.push(value);
      },
      (error: unknown) => {
        if (!this.destroyed) this.#fail(error);
      },
    );
  }

  #finish(): void {
    this.#ended = true;
    this.push(null);
  }

  /** After the first byte the status is gone: report the failure inside the stream, then end it. */
  #fail(error: unknown): void {
    this.#options.logger?.error('response body failed after the stream started', errorFields(error));
    if (this.#options.sse) {
      // Close any half-written event first so the error frame parses on its own.
      const separator = this.#tail === '\n\n' ? '' : '\n\n';
      this.push(`${separator}${sseInternalErrorFrame()}`);
    }
    this.#finish();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.#ended) {
      const reason = error ?? new Error('response stream closed before the body ended');
      this.#options.onAbort?.(reason);
      // Cancelling propagates to the producer's `cancel()`, so the runtime stops generating events.
      this.#reader?.cancel(reason).catch(() => undefined);
    }
    callback(error);
  }
}

/** Wraps a response body for the Lambda response stream. */
export function responseBodyReadable(
  body: ReadableStream<Uint8Array> | null,
  options: ResponseBodyOptions,
): Readable {
  return new ResponseBodyReadable(body, options);
}
