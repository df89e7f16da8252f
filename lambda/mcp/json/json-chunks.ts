/**
 * JSON written in bounded chunks, with exactly `JSON.stringify`'s output (ECMA-262 §25.5.2.2
 * SerializeJSONProperty: `toJSON` with the property key, boxed primitives unwrapped, `undefined`/functions/symbols
 * skipped in objects and `null` in arrays, non-finite numbers as `null`).
 *
 * The walker descends through the "spine" of a value (objects, arrays, and array elements that hold a
 * `LazyJson`) and hands every other array element to one native `JSON.stringify`: a large result is mostly a
 * long array of records, so the work stays native while memory holds one element and one chunk at a time.
 * A single element is therefore the unit that is built whole (a record, not the result).
 */
import { CHUNK_BYTES, ChunkWriter } from './chunk-writer.js';
import { HAS_LAZY, LazyJson, probeStringify } from './lazy-json.js';
import type { JsonSink } from './lazy-json.js';
import type { JsonObject } from '../types.js';

/** `toJSON` applied as JSON.stringify applies it: once, with the property key. */
function resolve(value: unknown, key: string | number): unknown {
  if (value instanceof LazyJson) return value;
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as (key: string) => unknown).call(value, String(key));
  }
  return value;
}

/** Plain objects and arrays: the values the walker descends into (boxed primitives serialise as primitives). */
function isContainer(value: unknown): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof LazyJson) &&
    !(value instanceof Number || value instanceof String || value instanceof Boolean)
  );
}

/**
 * Writes the JSON text of `value` to `sink`, yielding whenever `sink.pending` (completed chunks wait). Returns
 * false, having written nothing, when `value` has no JSON text (where `JSON.stringify` returns undefined).
 */
export function* writeJson(value: unknown, sink: JsonSink): Generator<void, boolean, undefined> {
  return yield* writeResolved(resolve(value, ''), sink, []);
}

function* writeResolved(
  value: unknown,
  sink: JsonSink,
  stack: object[],
): Generator<void, boolean, undefined> {
  if (value instanceof LazyJson) {
    yield* sink.lazy(value as LazyJson);
    return true;
  }
  if (!isContainer(value)) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    sink.json(text);
    return true;
  }
  if (stack.includes(value)) throw new TypeError('Converting circular structure to JSON');
  stack.push(value);
  if (Array.isArray(value)) yield* writeArray(value, sink, stack);
  else yield* writeObject(value, sink, stack);
  stack.pop();
  return true;
}

function* writeArray(
  array: readonly unknown[],
  sink: JsonSink,
  stack: object[],
): Generator<void, void, undefined> {
  sink.punct('[');
  for (let i = 0; i < array.length; i++) {
    if (i > 0) sink.punct(',');
    const item = resolve(array[i], i);
    const text = probeStringify(item);
    if (text === HAS_LAZY) yield* writeResolved(item, sink, stack);
    else sink.json(text ?? 'null');
    if (sink.pending) yield;
  }
  sink.punct(']');
}

function* writeObject(object: object, sink: JsonSink, stack: object[]): Generator<void, void, undefined> {
  sink.punct('{');
  let first = true;
  for (const key of Object.keys(object)) {
    const item = resolve((object as Record<string, unknown>)[key], key);
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (!first) sink.punct(',');
    first = false;
    sink.json(JSON.stringify(key));
    sink.punct(':');
    yield* writeResolved(item, sink, stack);
    if (sink.pending) yield;
  }
  sink.punct('}');
}

/**
 * The UTF-8 chunks (each at most `chunkBytes`, each ending between characters) of `JSON.stringify(value)`, written
 * as they are pulled.
 */
export function* jsonChunks(
  value: unknown,
  chunkBytes = CHUNK_BYTES,
): Generator<Uint8Array, void, undefined> {
  const out = new ChunkWriter(chunkBytes);
  const walk = writeJson(value, out);
  let step = walk.next();
  for (; !step.done; step = walk.next()) yield* out.take();
  if (!step.value) throw new TypeError('value has no JSON text');
  out.end();
  yield* out.take();
}

/**
 * A JSON object holding `LazyJson` values (a JSON-RPC response whose result is large), serialised as bounded
 * UTF-8 chunks while it is read. Single use. The first chunk is written at construction, so a value that fails
 * to serialise early fails where `JSON.stringify` would have, before any byte is committed.
 */
export class ChunkedJson implements IterableIterator<Uint8Array> {
  /** The object; `JSON.stringify(value)` is its text. */
  readonly value: JsonObject;
  readonly #chunks: Generator<Uint8Array, void, undefined>;
  #first: IteratorResult<Uint8Array, void> | undefined;

  /** @param chunkBytes @default CHUNK_BYTES */
  constructor(value: JsonObject, chunkBytes?: number) {
    this.value = value;
    this.#chunks = jsonChunks(value, chunkBytes);
    this.#first = this.#chunks.next();
  }

  next(): IteratorResult<Uint8Array, void> {
    const first = this.#first;
    if (first === undefined) return this.#chunks.next();
    this.#first = undefined;
    return first;
  }

  /** Stops early (the reader went away); releases the walk. */
  return(): IteratorResult<Uint8Array, void> {
    this.#first = undefined;
    return this.#chunks.return(undefined);
  }

  [Symbol.iterator](): this {
    return this;
  }

  /** The whole text as one string (lazy values build their plain value): for batch responses. */
  text(): string {
    return JSON.stringify(this.value);
  }

  /** The chunks as a byte stream that writes the next chunk only when the reader asks for it. */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          const step = this.next();
          if (step.done === true) controller.close();
          else controller.enqueue(step.value);
        },
        cancel: () => {
          this.return();
        },
      },
      { highWaterMark: 0 },
    );
  }
}
