/**
 * The body of a response as a Node `Readable` for the Lambda response stream. It is pull-based, so the
 * destination's backpressure (`write()` returning false, then 'drain') stops reads from the web stream.
 */
import { Readable } from 'node:stream';
import type { Writable } from 'node:stream';
import { RequestCancelledError } from '../../mcp/index.js';
import type { Logger } from '../../mcp/index.js';
import { sseInternalErrorFrame } from './error-response.js';
import { errorFields } from '../config/errors.js';

/** Options for {@link responseBodyReadable}. */
export interface ResponseBodyOptions {
  /** Whether the body is `text/event-stream` (a failure is then reported as an SSE error frame). */
  sse: boolean;
  /** Called once if the destination fails or closes before the body ended (client went away). */
  onAbort?: (reason: unknown) => void;
  logger?: Logger;
  /**
   * A destination holding unwritten bytes that makes no progress for this long (the client stopped reading)
   * ends the response: `onAbort` fires with a `ClientStalledError`, so the invocation's work is aborted.
   * 0 or absent: never.
   */
  stallMs?: number;
}

/**
 * Why a response was ended: its client stopped reading (no write progress for `stallMs`). A
 * `RequestCancelledError('client_stalled')`, so the runtime ends the call's work even on a resumable stream.
 */
export class ClientStalledError extends RequestCancelledError {
  override readonly name = 'ClientStalledError';

  constructor(readonly stallMs: number) {
    super('client_stalled');
  }
}

/** Largest write when a stall time is set, so a slow but steady reader shows progress between writes. */
const PIECE_BYTES = 64 * 1024;

/** Node `Readable` over a response body, with the Lambda streaming rules built in. */
class ResponseBodyReadable extends Readable {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #options: ResponseBodyOptions;
  #primed = false;
  #ended = false;
  #tail = '\n\n';
  /** What is left of a chunk larger than one piece. */
  #rest: Uint8Array | undefined;
  /** Where the body is piped (the response stream), watched for write progress. */
  #destination: NodeJS.WritableStream | undefined;
  #delivered = 0;
  #lastFlushed = 0;
  #lastProgressAt = 0;
  #watchdog: NodeJS.Timeout | undefined;

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
    const rest = this.#rest;
    if (rest !== undefined) return this.#pushPiece(rest);
    if (this.#reader === undefined) return this.#finish();
    this.#reader.read().then(
      ({ done, value }) => {
        if (this.destroyed) return;
        if (done) return this.#finish();
        if (value.byteLength > 0)
          this.#tail = (this.#tail + Buffer.from(value.subarray(-2)).toString('latin1')).slice(-2);
        this.#pushPiece(value);
      },
      (error: unknown) => {
        if (!this.destroyed) this.#fail(error);
      },
    );
  }

  /**
   * Pushes at most {@link PIECE_BYTES} of `chunk`, keeping the rest for the next read: with a stall time set,
   * progress is only visible between writes, so one huge write must not look like a stalled client.
   */
  #pushPiece(chunk: Uint8Array): void {
    const limit = (this.#options.stallMs ?? 0) > 0 ? PIECE_BYTES : Infinity;
    this.#rest = chunk.byteLength > limit ? chunk.subarray(limit) : undefined;
    this.push(chunk.byteLength > limit ? chunk.subarray(0, limit) : chunk);
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

  /** Records the destination (`pipeline` pipes into it) and starts watching it when a stall time is set. */
  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    const stallMs = this.#options.stallMs ?? 0;
    if (stallMs > 0 && this.#destination === undefined) {
      this.#destination = destination;
      this.#lastProgressAt = Date.now();
      this.on('data', (chunk: Uint8Array | string) => {
        this.#delivered += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      });
      this.#watchdog = setInterval(
        () => this.#checkProgress(stallMs),
        Math.min(1000, Math.ceil(stallMs / 4)),
      );
      const stop = (): void => clearInterval(this.#watchdog);
      destination.once('finish', stop);
      destination.once('close', stop);
    }
    return super.pipe(destination, options);
  }

  /**
   * Progress is bytes leaving the destination's buffer (delivered to it minus still buffered there). An
   * empty buffer is never a stall: the client has everything it was sent, and the producer may be slow.
   */
  #checkProgress(stallMs: number): void {
    const destination = this.#destination as (NodeJS.WritableStream & Partial<Writable>) | undefined;
    if (destination === undefined) return;
    const buffered = destination.writableLength ?? 0;
    const flushed = this.#delivered - buffered;
    const now = Date.now();
    if (buffered === 0 || flushed > this.#lastFlushed) {
      this.#lastFlushed = flushed;
      this.#lastProgressAt = now;
      return;
    }
    if (now - this.#lastProgressAt < stallMs) return;
    clearInterval(this.#watchdog);
    const reason = new ClientStalledError(stallMs);
    this.#options.logger?.warn('client stopped reading; ending the response and its work', {
      reason: reason.code,
      stallMs,
      bufferedBytes: buffered,
    });
    // The work first (the reason reaches the invocation even when the body already ended), then both ends.
    this.#options.onAbort?.(reason);
    this.#reader?.cancel(reason).catch(() => undefined);
    this.#ended = true;
    this.destroy(reason);
    destination.destroy?.(reason);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearInterval(this.#watchdog);
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
