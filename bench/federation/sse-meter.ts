/**
 * The response stream of an in-process invocation: takes the prelude, then reads the SSE body as a fast
 * client does, splitting it into events with `Buffer#indexOf` (native, so the reader's own CPU stays small
 * beside the call's). It counts the bytes of `notifications/bos/source_result` events and of the final frame
 * (the JSON-RPC response), and notes when the first `status: "page"` event and the final frame were whole.
 * With `capture`, it also keeps each event's `data` text, for the irreducible-work floor.
 */
import { Writable } from 'node:stream';

/** What a call's response looked like. */
export interface SseFigures {
  statusCode: number;
  /** `notifications/bos/source_result` events and their bytes (event lines and blank line included). */
  pageEvents: number;
  pageBytes: number;
  /** JSON-RPC response events (exactly one when the call ended normally) and their bytes. */
  finalFrames: number;
  finalBytes: number;
  /** Comments and any other event. */
  otherBytes: number;
  /** ms from the event until the first `status: "page"` event was whole; NaN when there was none. */
  firstPageMs: number;
  /** ms from the event until the final frame was whole. */
  wallMs: number;
}

/** The `data` text of each event, when captured. */
export interface CapturedEvents {
  pages: string[];
  final: string[];
}

const HEAD_BYTES = 256;
const NEWLINE = 0x0a;

/** A Writable that meters an SSE body; see the file comment. */
export class SseMeter extends Writable {
  readonly #startedAt: number;
  readonly #capture: CapturedEvents | undefined;
  #statusCode = 0;
  #figures = { pageEvents: 0, pageBytes: 0, finalFrames: 0, finalBytes: 0, otherBytes: 0 };
  #firstPageMs = NaN;
  #wallMs = NaN;
  // The event being read: its size so far, its first bytes, and (while needed) its bytes.
  #eventBytes = 0;
  #head = '';
  #parts: Buffer[] = [];
  #endsWithNewline = false;

  constructor(startedAt: number, options: { capture?: boolean } = {}) {
    super({ highWaterMark: 16_384 });
    this.#startedAt = startedAt;
    if (options.capture === true) this.#capture = { pages: [], final: [] };
  }

  /** `awslambda.HttpResponseStream.from` hands over the status and headers here. */
  prelude(metadata: Record<string, unknown>): void {
    this.#statusCode = typeof metadata['statusCode'] === 'number' ? metadata['statusCode'] : 0;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    let at = 0;
    // An event whose "\n\n" straddles two chunks ends with this chunk's first byte.
    if (this.#endsWithNewline && chunk.length > 0 && chunk[0] === NEWLINE) {
      this.#take(chunk, 0, 1);
      this.#endEvent();
      at = 1;
    }
    for (;;) {
      const blank = chunk.indexOf('\n\n', at);
      if (blank < 0) break;
      this.#take(chunk, at, blank + 2);
      this.#endEvent();
      at = blank + 2;
    }
    if (at < chunk.length) this.#take(chunk, at, chunk.length);
    this.#endsWithNewline = chunk.length > at && chunk[chunk.length - 1] === NEWLINE;
    callback();
  }

  /** The figures so far. */
  figures(): SseFigures {
    return {
      statusCode: this.#statusCode,
      ...this.#figures,
      firstPageMs: this.#firstPageMs,
      wallMs: this.#wallMs,
    };
  }

  /** The captured events (empty unless constructed with `capture`). */
  captured(): CapturedEvents {
    return this.#capture ?? { pages: [], final: [] };
  }

  #take(chunk: Buffer, from: number, to: number): void {
    this.#eventBytes += to - from;
    if (this.#head.length < HEAD_BYTES)
      this.#head += chunk.toString('latin1', from, Math.min(to, from + HEAD_BYTES));
    // Whole events are kept only while looking for the first page, or when capturing.
    if (this.#capture !== undefined || Number.isNaN(this.#firstPageMs))
      this.#parts.push(Buffer.from(chunk.subarray(from, to)));
  }

  #endEvent(): void {
    const bytes = this.#eventBytes;
    const head = this.#head;
    const parts = this.#parts;
    this.#eventBytes = 0;
    this.#head = '';
    this.#parts = [];
    if (!head.includes('data:')) {
      this.#figures.otherBytes += bytes;
      return;
    }
    const now = performance.now() - this.#startedAt;
    if (head.includes('notifications/bos/source_result')) {
      this.#figures.pageEvents++;
      this.#figures.pageBytes += bytes;
      if (Number.isNaN(this.#firstPageMs) && Buffer.concat(parts).includes('"status":"page"'))
        this.#firstPageMs = now;
      this.#capture?.pages.push(dataOf(parts));
    } else if (head.includes('"method":')) {
      this.#figures.otherBytes += bytes;
    } else {
      this.#figures.finalFrames++;
      this.#figures.finalBytes += bytes;
      this.#wallMs = now;
      this.#capture?.final.push(dataOf(parts));
    }
  }
}

/** The `data` field of one SSE event (its `data:` lines joined by newlines, as a client reads it). */
function dataOf(parts: Buffer[]): string {
  return Buffer.concat(parts)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
}
