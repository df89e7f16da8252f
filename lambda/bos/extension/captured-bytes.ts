/**
 * UTF-8 text captured while one half of the final frame is written, to be copied into the other half later,
 * held in 64 KiB buffers that are reused from invocation to invocation.
 *
 * Fresh buffers each time were measured and dropped (docs/federation.md "The final frame"): V8 counts their
 * memory as external and schedules more garbage collection as it grows, and the operating system faults fresh
 * pages in. A warm Lambda process serves one invocation after another, so buffers returned here after the
 * replay serve the next capture: external memory stops growing after the first large result, and the pages
 * stay mapped. At most {@link poolBytesFor} bytes of free buffers are kept.
 */
import type { ChunkWriter } from '../../mcp/index.js';

/** The size of each capture buffer. */
export const CAPTURE_CHUNK_BYTES = 65_536;

const MIB = 1024 * 1024;

/**
 * Most bytes of free buffers the process keeps for later captures: 128 MiB, or an eighth of the function's memory
 * when that is less (`AWS_LAMBDA_FUNCTION_MEMORY_SIZE`, in MB, which Lambda and the local stack set).
 */
export function poolBytesFor(memorySizeMb: string | undefined): number {
  const mb = Number(memorySizeMb);
  return Number.isFinite(mb) && mb > 0 ? Math.min(128 * MIB, Math.floor((mb * MIB) / 8)) : 128 * MIB;
}

const POOL_BYTES = poolBytesFor(process.env['AWS_LAMBDA_FUNCTION_MEMORY_SIZE']);

/** UTF-8 needs at most 3 bytes per UTF-16 code unit. */
const MAX_BYTES_PER_UNIT = 3;

const encoder = new TextEncoder();
const free: Buffer[] = [];

function take(): Buffer {
  return free.pop() ?? Buffer.allocUnsafeSlow(CAPTURE_CHUNK_BYTES);
}

function give(buffer: Buffer): void {
  if ((free.length + 1) * CAPTURE_CHUNK_BYTES <= POOL_BYTES) free.push(buffer);
}

/** Free buffers held for later captures (for tests and benchmarks). */
export function pooledCaptureBuffers(): number {
  return free.length;
}

/** Text appended as UTF-8, replayed once into a `ChunkWriter`; single use. */
export class CapturedBytes {
  readonly #full: Buffer[] = [];
  #buffer: Buffer = take();
  #length = 0;
  #released = false;

  /** Appends the UTF-8 bytes of `text`. */
  append(text: string): void {
    if (this.#released) throw new Error('capture already replayed or released');
    if (text.length * MAX_BYTES_PER_UNIT <= this.#buffer.length - this.#length) {
      this.#length += this.#buffer.write(text, this.#length, 'utf8');
      return;
    }
    let rest = text;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, this.#buffer.subarray(this.#length));
      this.#length += written;
      if (read === rest.length) return;
      this.#full.push(this.#buffer.subarray(0, this.#length));
      this.#buffer = take();
      this.#length = 0;
      rest = rest.slice(read);
    }
  }

  /** Copies every captured byte into `out`, yielding whenever `out.pending`, and returns the buffers. */
  *replay(out: ChunkWriter): Generator<void, void, undefined> {
    if (this.#released) throw new Error('capture already replayed or released');
    this.#full.push(this.#buffer.subarray(0, this.#length));
    this.#released = true;
    for (let i = 0; i < this.#full.length; i++) {
      const bytes = this.#full[i]!;
      out.bytes(bytes);
      give(Buffer.from(bytes.buffer, bytes.byteOffset, CAPTURE_CHUNK_BYTES));
      if (out.pending) yield;
    }
    this.#full.length = 0;
  }

  /** Returns the buffers without replaying (the capture is abandoned). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    for (const bytes of this.#full) give(Buffer.from(bytes.buffer, bytes.byteOffset, CAPTURE_CHUNK_BYTES));
    give(this.#buffer);
    this.#full.length = 0;
  }
}
