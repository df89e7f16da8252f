/**
 * Bytes collected into chunks of bounded size. JSON writers append UTF-8 text, punctuation, or bytes written
 * straight into `buffer` after `reserve`; a caller takes the completed chunks as they fill, so a message of any
 * size is held one or two chunks at a time instead of as one string.
 */
import type { JsonSink, LazyJson } from './lazy-json.js';

const encoder = new TextEncoder();

/**
 * 64 KiB: the SSE stream's queue bound (`SseStream` highWaterMark), and large enough that the per-chunk costs
 * (an enqueue, a Lambda stream write) vanish against the bytes.
 */
export const CHUNK_BYTES = 65_536;

/** UTF-8 needs at most 3 bytes per UTF-16 code unit (a surrogate pair is 2 units and 4 bytes). */
const MAX_BYTES_PER_UNIT = 3;

/** A bounded-chunk byte writer; also the UTF-8 `JsonSink` of `writeJson`. */
export class ChunkWriter implements JsonSink {
  /** The chunk being filled. Byte-level writers write at `length` after `reserve`, then advance `length`. */
  buffer: Buffer;
  /** Bytes used in `buffer`. */
  length = 0;
  /** Size of every chunk but the last. */
  readonly chunkBytes: number;
  readonly #newChunk: (bytes: number) => Buffer;
  #done: Uint8Array[] = [];

  /**
   * @param chunkBytes chunk size, at least 64. @default CHUNK_BYTES
   * @param chunkSource where each chunk's buffer of `chunkBytes` comes from (a pool, say). @default fresh memory
   */
  constructor(chunkBytes = CHUNK_BYTES, chunkSource: (bytes: number) => Buffer = newChunk) {
    if (!Number.isInteger(chunkBytes) || chunkBytes < 64) throw new RangeError('chunkBytes must be ≥ 64');
    this.chunkBytes = chunkBytes;
    this.#newChunk = chunkSource;
    this.buffer = chunkSource(chunkBytes);
  }

  /** True while completed chunks wait to be taken. */
  get pending(): boolean {
    return this.#done.length > 0;
  }

  /** Appends the UTF-8 bytes of `text`, completing chunks as they fill. */
  text(text: string): void {
    if (text.length * MAX_BYTES_PER_UNIT <= this.buffer.length - this.length) {
      // Buffer#write is the cheapest UTF-8 encoder here; it needs room for the whole text, checked above.
      this.length += this.buffer.write(text, this.length, 'utf8');
      return;
    }
    let rest = text;
    for (;;) {
      // encodeInto never writes part of a character, so a chunk never ends inside one.
      const { read, written } = encoder.encodeInto(rest, this.buffer.subarray(this.length));
      this.length += written;
      if (read === rest.length) return;
      this.#complete();
      rest = rest.slice(read);
    }
  }

  /**
   * Appends UTF-8 bytes (whole characters), completing chunks as they fill; a chunk still never ends inside a
   * character.
   */
  bytes(source: Uint8Array): void {
    let rest = source;
    for (;;) {
      const room = this.buffer.length - this.length;
      if (rest.length <= room) {
        this.buffer.set(rest, this.length);
        this.length += rest.length;
        return;
      }
      // Cut before the lead byte of a character that would not fit whole (continuation bytes are 10xxxxxx).
      let cut = room;
      while (cut > 0 && (rest[cut]! & 0xc0) === 0x80) cut--;
      this.buffer.set(rest.subarray(0, cut), this.length);
      this.length += cut;
      this.#complete();
      rest = rest.subarray(cut);
    }
  }

  /** `JsonSink`: JSON text goes out as UTF-8. */
  json(text: string): void {
    this.text(text);
  }

  /** `JsonSink`: JSON text already in UTF-8 goes out as it is. */
  jsonBytes(source: Uint8Array, start: number, end: number): void {
    this.bytes(source.subarray(start, end));
  }

  /** `JsonSink`: one ASCII punctuation character. */
  punct(char: string): void {
    this.reserve(1);
    this.buffer[this.length++] = char.charCodeAt(0);
  }

  /** `JsonSink`: a lazy value writes its own bytes. */
  lazy(value: LazyJson): Iterable<void> {
    return value.write(this);
  }

  /** Guarantees `bytes` (at most `chunkBytes`) free bytes in `buffer`, completing the current chunk if needed. */
  reserve(bytes: number): void {
    if (this.buffer.length - this.length >= bytes) return;
    if (bytes > this.chunkBytes) throw new RangeError(`cannot reserve ${bytes} bytes in one chunk`);
    this.#complete();
  }

  /** Completes the last, partial chunk (if it holds anything). */
  end(): void {
    if (this.length === 0) return;
    // A short last chunk is copied out so the full-size buffer can be released at once.
    const used = this.buffer.subarray(0, this.length);
    this.#done.push(this.length < this.chunkBytes / 4 ? new Uint8Array(used) : used);
    this.buffer = newChunk(0);
    this.length = 0;
  }

  /** The completed chunks, oldest first; the writer forgets them. */
  take(): Uint8Array[] {
    const done = this.#done;
    this.#done = [];
    return done;
  }

  #complete(): void {
    if (this.length > 0) this.#done.push(this.buffer.subarray(0, this.length));
    this.buffer = this.#newChunk(this.chunkBytes);
    this.length = 0;
  }
}

/** A chunk buffer, not zero-filled: only the `length` bytes written are ever handed out. */
function newChunk(bytes: number): Buffer {
  return Buffer.allocUnsafeSlow(bytes);
}
