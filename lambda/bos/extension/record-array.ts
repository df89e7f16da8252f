/**
 * The records of a large final result, serialised once for both halves of the final frame. The text block comes
 * first on the wire: as it is written (`writeTo`, through the text block's sink), the records' `JSON.stringify`
 * text (16 records per call) is also captured as UTF-8 (`CapturedBytes`); `structuredContent`, written next by
 * the runtime's chunked encoder (`write`), copies those bytes instead of serialising every record again. By then
 * the records are long out of the processor's caches and spread over the heap, so a second `JSON.stringify` pass
 * costs mostly memory latency (docs/federation.md "The final frame"). Its JSON text is exactly
 * `JSON.stringify(records)` either way; written without a capture first, it serialises the records.
 */
import { LazyJson } from '../../mcp/index.js';
import type { ChunkWriter, JsonSink, JsonValue } from '../../mcp/index.js';
import { CapturedBytes } from './captured-bytes.js';

export class RecordArray extends LazyJson<JsonValue[]> {
  readonly #records: readonly unknown[];
  #captured: CapturedBytes | undefined;
  /** The sum `touch` returns: only written, so that the compiler keeps its loads. */
  // eslint-disable-next-line no-unused-private-class-members -- see above
  #touched = 0;

  constructor(records: readonly unknown[]) {
    super();
    this.#records = records;
  }

  value(): JsonValue[] {
    // Asked for the plain value (`JSON.stringify` of a batch), the records are serialised without a replay: a
    // capture the text block's `toJSON` just made is not needed, and its buffers go back to the pool.
    this.#captured?.release();
    this.#captured = undefined;
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
    for (let start = 0; start < records.length; start += BATCH) {
      const end = Math.min(records.length, start + BATCH);
      // The next batch's fields are read now, so that their cache misses overlap while this batch is written.
      for (let i = end; i < Math.min(records.length, end + BATCH); i++) this.#touched += touch(records[i]);
      if (start > 0) {
        sink.punct(',');
        capture?.append(',');
      }
      // One JSON.stringify for the batch (its elements' text is each record's, `null` where a record has
      // none), without the brackets: the same text as the records' one by one, joined by commas.
      const text = JSON.stringify(records.slice(start, end)).slice(1, -1);
      if (capture === undefined) sink.json(text);
      else capture.appendJson(text, sink);
      if (sink.pending) yield;
    }
    sink.punct(']');
    capture?.append(']');
  }
}

/**
 * Records serialised by one `JSON.stringify`, and read ahead (`touch`) one batch at a time. Measured on the
 * benchmark's final result (147,500 records, the final frame alone, alternated in one process, 8 rounds): batches
 * of 8 or 16 with the next batch read ahead cost 17–19 % less than one call per record read 8 records ahead;
 * 64 saved less, and batches without the read-ahead cost more than the one-by-one calls (docs/federation.md
 * "Sixth pass").
 */
const BATCH = 16;

/**
 * Reads what `JSON.stringify` will read of a record (its strings, its provenance entries, its attribute values),
 * some records before it is serialised. The final result's records were built long before and lie all over the
 * heap, in result order; `JSON.stringify` walks a record one field at a time, waiting on each cache miss in turn,
 * while these plain loads of independent fields let the processor wait on several misses at once. The sum is only
 * kept so that the loads are not optimised away.
 */
function touch(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  // Read as a record, but any value may come here: each step checks what it finds.
  const record = value as Record<string, unknown>;
  let n = length(record.record_ref) + length(record.display_name) + length(record.email);
  n += length(record.phone) + length(record.lifecycle);
  const sources = record.sources;
  if (Array.isArray(sources))
    for (let i = 0; i < sources.length; i++) {
      const entry: unknown = sources[i];
      if (typeof entry !== 'object' || entry === null) continue;
      const { external_id, observed_at, version } = entry as Record<string, unknown>;
      n += length(external_id) + length(observed_at) + length(version);
    }
  const attributes = record.attributes;
  if (typeof attributes === 'object' && attributes !== null)
    for (const key in attributes) n += length((attributes as Record<string, unknown>)[key]);
  return n;
}

function length(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}
