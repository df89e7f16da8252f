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
import { ChunkWriter } from '../../mcp/index.js';
import type { JsonSink } from '../../mcp/index.js';

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

const free: Buffer[] = [];

function take(): Buffer {
  return free.pop() ?? Buffer.allocUnsafeSlow(CAPTURE_CHUNK_BYTES);
}

/** Returns the pooled buffer that `bytes` views from its start. */
function give(bytes: Uint8Array): void {
  if ((free.length + 1) * CAPTURE_CHUNK_BYTES <= POOL_BYTES)
    free.push(Buffer.from(bytes.buffer, bytes.byteOffset, CAPTURE_CHUNK_BYTES));
}

/** Free buffers held for later captures (for tests and benchmarks). */
export function pooledCaptureBuffers(): number {
  return free.length;
}

/** Text appended as UTF-8, replayed once into a `ChunkWriter`; single use. */
export class CapturedBytes {
  /** Writes into pooled buffers; its completed chunks are views from the start of one. */
  readonly #writer = new ChunkWriter(CAPTURE_CHUNK_BYTES, take);
  #released = false;

  /** Appends the UTF-8 bytes of `text`. */
  append(text: string): void {
    if (this.#released) throw new Error('capture already replayed or released');
    this.#writer.text(text);
  }

  /**
   * Appends the UTF-8 bytes of the JSON text `json` and writes the same text to `sink`: from the bytes just captured
   * when they lie in one buffer (the text is encoded once for both), else as text.
   */
  appendJson(json: string, sink: JsonSink): void {
    const writer = this.#writer;
    const buffer = writer.buffer;
    const start = writer.length;
    this.append(json);
    if (writer.buffer === buffer) sink.jsonBytes(buffer, start, writer.length);
    else sink.json(json);
  }

  /** Copies every captured byte into `out`, yielding whenever `out.pending`, and returns the buffers. */
  *replay(out: ChunkWriter): Generator<void, void, undefined> {
    if (this.#released) throw new Error('capture already replayed or released');
    const chunks = this.#chunks();
    for (const bytes of chunks) {
      out.bytes(bytes);
      give(bytes);
      if (out.pending) yield;
    }
  }

  /** Returns the buffers without replaying (the capture is abandoned). */
  release(): void {
    if (this.#released) return;
    for (const bytes of this.#chunks()) give(bytes);
  }

  /** Every captured chunk, the one being filled last; the capture is over. */
  #chunks(): Uint8Array[] {
    this.#released = true;
    const writer = this.#writer;
    return [...writer.take(), writer.buffer.subarray(0, writer.length)];
  }
}
