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
import type { JsonRpcId, Logger, StreamStore } from '../types.js';
import { commentFrame, encodeEventFrame, encodeFrame, encodeJsonEventFrame, primingFrame } from './writer.js';

/**
 * Largest final message stored for replay: DynamoDB items are capped at 400 KB and reference-runtime-lessons §5
 * item 7 keeps inline events at or below 358,400 B (`lambda/aws/dynamodb-stream-store.ts` refuses larger ones).
 * There is no S3 spill, so a larger final message is delivered live and replaced in the store (see `finish`).
 */
export const MAX_STORED_EVENT_BYTES = 358_400;

/** Stored in place of a final message too large to replay (docs/mcp-runtime.md "Streaming (SSE)"). */
const tooLargeToReplay = new McpError(JsonRpcCode.InternalError, 'Result too large to replay');

/** UTF-16 units gathered from a final message's pieces before they are encoded and enqueued as one chunk. */
const FINAL_CHUNK_UNITS = 65_536;

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

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
  /** Largest final message (UTF-8 bytes) stored for replay. @default MAX_STORED_EVENT_BYTES */
  maxStoredEventBytes?: number;
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
  /** True while a final message given as pieces is half written. */
  #midFrame = false;

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
   * as pieces (`jsonPieces`): without a store they are encoded into chunks of about `FINAL_CHUNK_UNITS` as they
   * come, waiting for the consumer between chunks, so no multi-megabyte string or buffer is ever built; with a
   * store they are joined (the store keeps whole messages). With a store, a final message over
   * `maxStoredEventBytes` is still delivered live in full, but the store keeps a JSON-RPC error for `requestId` in
   * its place (same event id): a client that resumes after losing it learns that the result cannot be replayed
   * instead of waiting for a frame that will never come.
   */
  async finish(final: string | Iterable<string>, requestId?: JsonRpcId): Promise<void> {
    if (typeof final !== 'string' && this.#options.store === undefined) {
      this.#step(() => this.#sendPieces(final, requestId ?? null));
    } else {
      let message: string;
      try {
        message = typeof final === 'string' ? final : [...final].join('');
      } catch (error) {
        message = this.#unserialisable(requestId ?? null, error);
      }
      this.#persisted(message, requestId ?? null);
    }
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
   * Writes a final message given as pieces as one frame. A piece that fails before the first chunk is out turns
   * into an error frame; after it, no frame can follow an unfinished one, so the body just ends (SSE parsers drop
   * the unfinished frame and the client sees no final response).
   */
  async #sendPieces(pieces: Iterable<string>, requestId: JsonRpcId | null): Promise<void> {
    let chunk = 'event: message\ndata: ';
    let started = false;
    this.#midFrame = true;
    try {
      for (const piece of pieces) {
        chunk += piece;
        if (chunk.length < FINAL_CHUNK_UNITS) continue;
        started = true;
        await this.#enqueue(encodeFrame(chunk));
        if (this.#ended) return;
        chunk = '';
      }
      await this.#enqueue(encodeFrame(`${chunk}\n\n`));
    } catch (error) {
      if (started) {
        this.#options.logger.error('final message failed after its first bytes', describeError(error));
        this.#end();
        this.#controller.close();
      } else {
        this.#write(encodeEventFrame(this.#unserialisable(requestId, error), undefined, 'message'));
      }
    } finally {
      this.#midFrame = false;
    }
  }

  /** The error answer for a result that could not be serialised (a handler broke the JSON types), logged. */
  #unserialisable(requestId: JsonRpcId | null, error: unknown): string {
    this.#options.logger.error('tool result could not be serialised', describeError(error));
    return errorJson(requestId, toWireError(error));
  }

  /** Enqueues one chunk of a frame, then waits while the consumer's queue is full (or until the body ends). */
  async #enqueue(chunk: Uint8Array): Promise<void> {
    if (this.#ended) return;
    this.#controller.enqueue(chunk);
    this.#keepalive?.refresh();
    if (!this.#hasRoom()) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /**
   * `finalFor` (the request id of a final message) turns on the replay size bound; `stringified` says the data
   * came from `JSON.stringify` (one line).
   */
  #persisted(data: string, finalFor?: JsonRpcId | null, stringified = false): void {
    const encode = stringified ? encodeJsonEventFrame : encodeEventFrame;
    if (this.#options.store === undefined) {
      this.#step(() => this.#write(encode(data, undefined, 'message')), data.length);
      return;
    }
    this.#step(async () => {
      const tooLarge = finalFor !== undefined && utf8Bytes(data) > this.#maxStored();
      const id = await this.#append(tooLarge ? this.#standIn(finalFor) : data);
      if (id === undefined && data === '') return;
      if (id !== undefined && data === '') this.#write(primingFrame(id, this.#retryMs));
      else this.#write(encode(data, id, 'message'));
    }, data.length);
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

  #maxStored(): number {
    return this.#options.maxStoredEventBytes ?? MAX_STORED_EVENT_BYTES;
  }

  #standIn(requestId: JsonRpcId | null): string {
    this.#options.logger.warn('final message too large to store for replay');
    return errorJson(requestId, tooLargeToReplay);
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
    // A keepalive inside a half-written frame would land in its data.
    if (this.#midFrame) {
      this.#keepalive?.refresh();
      return;
    }
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
