/**
 * The records of a large final result, serialised once for both halves of the final frame. The text block comes
 * first on the wire: as it is written (`writeTo`, through the text block's sink), each record's
 * `JSON.stringify` text is also captured as UTF-8 (`CapturedBytes`); `structuredContent`, written next by the
 * runtime's chunked encoder (`write`), copies those bytes instead of serialising every record again. By then the
 * records are long out of the processor's caches and spread over the heap, so a second `JSON.stringify` pass
 * costs mostly memory latency (docs/federation.md "The final frame"). Its JSON text is exactly
 * `JSON.stringify(records)` either way; written without a capture first, it serialises the records.
 */
import { LazyJson } from '../../mcp/index.js';
import type { ChunkWriter, JsonSink, JsonValue } from '../../mcp/index.js';
import { CapturedBytes } from './captured-bytes.js';

export class RecordArray extends LazyJson<JsonValue[]> {
  readonly #records: readonly unknown[];
  #captured: CapturedBytes | undefined;

  constructor(records: readonly unknown[]) {
    super();
    this.#records = records;
  }

  value(): JsonValue[] {
    // The engine's records are plain JSON in wire key order; the cast only widens readonly types.
    return this.#records as JsonValue[];
  }

  /** The records' JSON text, from the capture of an earlier `writeTo` when there is one. */
  *write(out: ChunkWriter): Generator<void, void, undefined> {
    const captured = this.#captured;
    this.#captured = undefined;
    if (captured !== undefined) {
      yield* captured.replay(out);
      return;
    }
    yield* this.#serialise(out, undefined);
  }

  /** The records' JSON text through `sink`, captured for the `write` that follows. */
  override *writeTo(sink: JsonSink): Generator<void, void, undefined> {
    this.#captured?.release();
    this.#captured = undefined;
    const capture = new CapturedBytes();
    let complete = false;
    try {
      yield* this.#serialise(sink, capture);
      complete = true;
    } finally {
      // Only a whole capture is replayed; one cut short (the reader went away) goes back to the pool.
      if (complete) this.#captured = capture;
      else capture.release();
    }
  }

  *#serialise(sink: JsonSink, capture: CapturedBytes | undefined): Generator<void, void, undefined> {
    const records = this.#records;
    sink.punct('[');
    capture?.append('[');
    for (let i = 0; i < records.length; i++) {
      if (i > 0) {
        sink.punct(',');
        capture?.append(',');
      }
      const text = (JSON.stringify(records[i]) as string | undefined) ?? 'null';
      sink.json(text);
      capture?.append(text);
      if (sink.pending) yield;
    }
    sink.punct(']');
    capture?.append(']');
  }
}
