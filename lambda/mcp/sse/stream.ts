/**
 * The SSE body of one streaming tool call. Frames are persisted to the `StreamStore` in emission order
 * (a serial chain, so ids are assigned in order) and then enqueued on a `ReadableStream` whose queue is
 * bounded by `highWaterMark` bytes: `ready()` lets producers wait for the consumer (backpressure), and
 * nothing but the not-yet-read frames is held in memory. Keepalive comments fill idle gaps. `finish`
 * always ends the stream, whatever failed before.
 */
import { JsonRpcCode, McpError, toWireError } from '../errors.js';
import { errorJson } from '../json/json-rpc.js';
import { describeError } from '../logger.js';
import type { JsonRpcId, Logger, StreamStore } from '../types/index.js';
import { commentFrame, encodeEventFrame, encodeFrame, encodeJsonEventFrame, primingFrame } from './writer.js';

/**
 * Largest JSON-RPC message one SSE event may carry (`MCP_STREAM_MAX_EVENT_BYTES`, the method surface's hard
 * maximum for one logical stream event): 10 MiB.
 */
export const MAX_STREAM_EVENT_BYTES = 10 * 1024 * 1024;

/** Stored in place of a final message the store would not take (docs/mcp-runtime.md "Streaming (SSE)"). */
const tooLargeToReplay = new McpError(JsonRpcCode.InternalError, 'Result too large to replay');
const notReplayable = new McpError(JsonRpcCode.InternalError, 'Result could not be stored for replay');

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** UTF-16 units gathered from a final message's pieces before they are encoded as one chunk. */
const FINAL_CHUNK_UNITS = 65_536;

/** Options of `SseStream`. */
export interface SseStreamOptions {
  /**
   * Where frames are persisted for replay. Absent in the 2026-07-28 stateless shape, which has no
   * resumption (mcp-2026-notes §1.4): frames then carry no `id` and nothing is stored.
   */
  store?: { store: StreamStore; sessionId: string; streamId: string };
  keepaliveMs: number;
  logger: Logger;
  /** Called once when the consumer cancels the body (client gone). */
  onCancel: () => void;
  /** Bytes queued before `ready()` waits. @default 65536 */
  highWaterMark?: number;
  /**
   * Largest final message (UTF-8 bytes) stored for replay; a larger one is replaced in the store by a JSON-RPC
   * error. @default no bound of its own: the store decides, and a final message it refuses is replaced the same way
   */
  maxStoredEventBytes?: number;
  /**
   * Largest message (UTF-8 bytes) of one event. An event over it fails the call closed: it and every later
   * notification are dropped and the final message becomes a `-32603` "Stream event too large" error for the
   * request (`data.maxEventBytes`). @default MAX_STREAM_EVENT_BYTES
   */
  maxEventBytes?: number;
}

/** A resumable SSE response body. */
export class SseStream {
  readonly body: ReadableStream<Uint8Array>;
  readonly #options: SseStreamOptions;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #chain: Promise<void> = Promise.resolve();
  #ended = false;
  #waiters: (() => void)[] = [];
  /**
   * UTF-16 units of frames sent but not yet enqueued (their step is still in the chain). They count against the
   * consumer's room: otherwise a fast producer sees an empty queue while its frames pile up in the chain.
   */
  #pendingUnits = 0;
  #keepalive: NodeJS.Timeout | undefined;
  #retryMs: number | undefined;
  /** An event went over `maxEventBytes`: later notifications are dropped and the final becomes an error. */
  #overflowed = false;

  constructor(options: SseStreamOptions) {
    this.#options = options;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => this.#wakeIfRoom(),
        cancel: () => {
          this.#end();
          options.onCancel();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: options.highWaterMark ?? 65_536 }),
    );
    if (options.keepaliveMs > 0) {
      this.#keepalive = setTimeout(() => this.#onIdle(), options.keepaliveMs);
      this.#keepalive.unref();
    }
  }

  /**
   * Persists and sends the empty-data priming event (no-op without a store: nothing to resume). With
   * `retryMs` the live frame also carries `retry:`; the stored event does not need it (a replaying client
   * has already reconnected).
   */
  prime(retryMs?: number): void {
    if (this.#options.store === undefined) return;
    this.#retryMs = retryMs;
    this.#persisted('');
  }

  /** Persists and sends one JSON-RPC message as an `event: message` frame. */
  send(json: string): void {
    this.#persisted(json);
  }

  /**
   * `send` for a message the caller has just serialised with `JSON.stringify`, whose output never holds a raw CR
   * or LF: the frame writer then skips scanning it for line breaks.
   */
  sendStringified(json: string): void {
    this.#persisted(json, undefined, true);
  }

  /** Sends a comment frame (not persisted: comments carry no replayable content). */
  comment(text: string): void {
    this.#step(() => this.#write(commentFrame(text)));
  }

  /**
   * Ends the body once the frames queued before this call are written (SEP-1699 polling). Frames sent
   * afterwards are still persisted for replay; only the live delivery stops.
   */
  close(): void {
    this.#step(() => {
      if (this.#ended) return;
      this.#end();
      this.#controller.close();
    });
  }

  /**
   * Resolves when the consumer has room (desiredSize, less the frames still waiting to be enqueued, is above
   * zero) or the stream has ended.
   */
  ready(): Promise<void> {
    if (this.#hasRoom()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Sends the final message, closes the stored stream and ends the body. Never rejects. The message may be given
   * as pieces (`jsonPieces`): without a store they are encoded into chunks of about `FINAL_CHUNK_UNITS`, so no
   * multi-megabyte string is ever built; with a store they are joined (the store keeps whole messages). With a
   * store, a final message the store refuses (or one over `maxStoredEventBytes`) is still delivered live in full,
   * but the store keeps a JSON-RPC error for `requestId` in its place (same event id): a client that resumes after
   * losing it learns that the result cannot be replayed instead of waiting for a frame that will never come.
   */
  async finish(final: string | Iterable<string>, requestId?: JsonRpcId): Promise<void> {
    const id = requestId ?? null;
    if (typeof final === 'string') this.#persisted(final, id);
    else if (this.#options.store === undefined) this.#step(() => this.#sendPieces(final, id));
    else this.#persisted(this.#joined(final, id), id);
    await this.#chain;
    const { store: target, logger } = this.#options;
    await target?.store.close(target.sessionId, target.streamId).catch((error: unknown) => {
      logger.warn('stream store close failed', describeError(error));
    });
    if (!this.#ended) {
      this.#end();
      this.#controller.close();
    }
  }

  /**
   * Writes a final message given as pieces as one frame. Its chunks are held until the message is whole, so that
   * one over `maxEventBytes`, or a piece that fails, still becomes an error answer before any of its bytes are
   * out; then they are enqueued together.
   */
  #sendPieces(pieces: Iterable<string>, requestId: JsonRpcId | null): void {
    const max = this.#maxEventBytes();
    const chunks = [encodeFrame('event: message\ndata: ')];
    let bytes = 0;
    let text = '';
    try {
      for (const piece of this.#overflowed ? [] : pieces) {
        text += piece;
        if (text.length < FINAL_CHUNK_UNITS) continue;
        chunks.push(encodeFrame(text));
        bytes += chunks.at(-1)!.byteLength;
        text = '';
        if (bytes > max) break;
      }
      if (bytes <= max) {
        chunks.push(encodeFrame(`${text}\n\n`));
        bytes += chunks.at(-1)!.byteLength - 2;
      }
    } catch (error) {
      this.#write(encodeEventFrame(this.#unserialisable(requestId, error), undefined, 'message'));
      return;
    }
    if (bytes > max) this.#overLimit(bytes);
    if (this.#overflowed) this.#write(encodeEventFrame(this.#tooLarge(requestId), undefined, 'message'));
    else for (const chunk of chunks) this.#write(chunk);
  }

  /** A final message given as pieces, joined (or the error answer when a piece fails). */
  #joined(pieces: Iterable<string>, requestId: JsonRpcId | null): string {
    try {
      return [...pieces].join('');
    } catch (error) {
      return this.#unserialisable(requestId, error);
    }
  }

  /** The error answer for a result that could not be serialised (a handler broke the JSON types), logged. */
  #unserialisable(requestId: JsonRpcId | null, error: unknown): string {
    this.#options.logger.error('tool result could not be serialised', describeError(error));
    return errorJson(requestId, toWireError(error));
  }

  /**
   * `finalFor` (the request id of a final message) turns on the replay size bound; `stringified` says the data
   * came from `JSON.stringify` (one line).
   */
  #persisted(input: string, finalFor?: JsonRpcId | null, stringified = false): void {
    const data = this.#bounded(input, finalFor);
    if (data === undefined) return;
    const encode = stringified && data === input ? encodeJsonEventFrame : encodeEventFrame;
    if (this.#options.store === undefined) {
      this.#step(() => this.#write(encode(data, undefined, 'message')), data.length);
      return;
    }
    this.#step(async () => {
      const max = this.#options.maxStoredEventBytes;
      const tooLarge = finalFor !== undefined && max !== undefined && utf8Bytes(data) > max;
      let id = await this.#append(tooLarge ? this.#standIn(finalFor, tooLargeToReplay) : data);
      // A final message the store refused (too large for it, or a failed write): a resuming client must
      // still learn that its result will not come, so an error takes its place under the same id.
      if (id === undefined && finalFor !== undefined && !tooLarge)
        id = await this.#append(this.#standIn(finalFor, notReplayable));
      if (id === undefined && data === '') return;
      if (id !== undefined && data === '') this.#write(primingFrame(id, this.#retryMs));
      else this.#write(encode(data, id, 'message'));
    }, data.length);
  }

  /**
   * Applies `maxEventBytes` (MCP_STREAM_MAX_EVENT_BYTES): the data to send, or `undefined` to drop the event.
   * Measured in UTF-8 bytes, but only when the string could exceed the bound (at most 3 bytes per UTF-16 unit).
   */
  #bounded(data: string, finalFor: JsonRpcId | null | undefined): string | undefined {
    const max = this.#maxEventBytes();
    if (data.length * 3 > max) {
      const bytes = utf8Bytes(data);
      if (bytes > max) this.#overLimit(bytes);
    }
    if (!this.#overflowed) return data;
    if (finalFor === undefined) return undefined;
    return this.#tooLarge(finalFor);
  }

  #maxEventBytes(): number {
    return this.#options.maxEventBytes ?? MAX_STREAM_EVENT_BYTES;
  }

  /** An event of `eventBytes` (at least) went over `maxEventBytes`: the call fails closed, logged once. */
  #overLimit(eventBytes: number): void {
    if (this.#overflowed) return;
    this.#overflowed = true;
    this.#options.logger.warn('stream event over the event size limit; the call fails', {
      eventBytes,
      maxEventBytes: this.#maxEventBytes(),
    });
  }

  /** The final message of a call whose stream went over `maxEventBytes`. */
  #tooLarge(requestId: JsonRpcId | null): string {
    return errorJson(
      requestId,
      new McpError(JsonRpcCode.InternalError, 'Stream event too large', {
        data: { maxEventBytes: this.#maxEventBytes() },
      }),
    );
  }

  /** Stores an event; on failure the frame is still delivered live, just not replayable (no id). */
  async #append(data: string): Promise<string | undefined> {
    const { store: target, logger } = this.#options;
    if (target === undefined) return undefined;
    try {
      return await target.store.append(target.sessionId, target.streamId, data);
    } catch (error) {
      logger.warn('stream store append failed', describeError(error));
      return undefined;
    }
  }

  #standIn(requestId: JsonRpcId | null, error: McpError): string {
    this.#options.logger.warn(
      error === tooLargeToReplay
        ? 'final message too large to store for replay'
        : 'final message not stored for replay; an error is stored in its place',
    );
    return errorJson(requestId, error);
  }

  /**
   * Appends a step to the ordered chain; a failing step is logged and never stalls later ones. `units` (the
   * size of the frame the step writes) counts against the consumer's room until the step has run.
   */
  #step(step: () => void | Promise<void>, units = 0): void {
    this.#pendingUnits += units;
    this.#chain = this.#chain
      .then(step)
      .catch((error: unknown) => {
        this.#options.logger.error('sse frame failed', describeError(error));
      })
      .then(() => {
        if (units === 0) return;
        this.#pendingUnits -= units;
        this.#wakeIfRoom();
      });
  }

  /** Enqueues a frame; event frames arrive already encoded (`encodeEventFrame` never builds their string). */
  #write(frame: string | Uint8Array): void {
    if (this.#ended) return;
    this.#controller.enqueue(typeof frame === 'string' ? encodeFrame(frame) : frame);
    this.#keepalive?.refresh();
  }

  #onIdle(): void {
    if (this.#ended) return;
    this.#controller.enqueue(encodeFrame(commentFrame('keepalive')));
    this.#keepalive?.refresh();
  }

  #hasRoom(): boolean {
    return this.#ended || (this.#controller.desiredSize ?? 1) - this.#pendingUnits > 0;
  }

  #wakeIfRoom(): void {
    if (this.#hasRoom()) this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  #end(): void {
    this.#ended = true;
    if (this.#keepalive !== undefined) clearTimeout(this.#keepalive);
    this.#wake();
  }
}
