/**
 * The event burst both sides of the streaming benchmark write: the same SSE frames, written one `write()` per
 * event, waiting for `drain` whenever the stream asks (the backpressure contract every writer must keep).
 */
import type { Writable } from 'node:stream';

/** One SSE frame of about 128 bytes, numbered. */
export function eventFrame(sequence: number): string {
  const data = JSON.stringify({ sequence, payload: 'x'.repeat(80) });
  return `id: ${sequence}\ndata: ${data}\n\n`;
}

/** Writes `count` frames to `out` with backpressure, then ends it. */
export async function writeBurst(out: Writable, count: number): Promise<void> {
  for (let sequence = 1; sequence <= count; sequence += 1) {
    if (!out.write(eventFrame(sequence))) {
      await new Promise<void>((resolve) => out.once('drain', resolve));
    }
  }
  out.end();
}
