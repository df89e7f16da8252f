/**
 * Values that write their own JSON. A large value — the BOS text block holds the whole result once more, as
 * escaped JSON — is a `LazyJson` in the result object; the runtime's chunked encoder (`json-chunks.ts`) lets it
 * write its bytes straight into bounded chunks, while `JSON.stringify` (batches, tests, any other consumer)
 * still sees the plain value through `toJSON`.
 */
import type { ChunkWriter } from './chunk-writer.js';
import type { JsonValue } from '../types.js';

/**
 * Where `writeJson` writes JSON text. `ChunkWriter` is the UTF-8 sink; the BOS text block has its own, which
 * re-encodes the same JSON text as the escaped contents of a JSON string.
 */
export interface JsonSink {
  /** A complete JSON text: a value, or a quoted property name. */
  json(text: string): void;
  /** A complete JSON text given as its UTF-8 bytes, `source[start..end)` (the same text `json` would take). */
  jsonBytes(source: Uint8Array, start: number, end: number): void;
  /** One of `[ ] { } , :`. */
  punct(char: string): void;
  /** True while completed chunks wait: the walker then yields so they can be taken. */
  readonly pending: boolean;
  /** Writes a lazy value found inside the walked value (yielding as the walker does). */
  lazy(value: LazyJson): Iterable<void>;
}

declare const lazyType: unique symbol;

/** Thrown through `JSON.stringify` by a probed `LazyJson`; caught in `probeStringify`, never seen elsewhere. */
class LazyJsonInsideError extends Error {
  constructor() {
    super('lazy JSON value inside');
    this.name = 'LazyJsonInsideError';
  }
}

let probing = false;
// One instance: a probe that meets a lazy value allocates nothing.
const lazyInside = new LazyJsonInsideError();

/**
 * How a `LazyJson<T>` appears in result types (e.g. a text block's `text: string | Lazy<string>`): only a
 * `LazyJson` has this (type-only) member. Having no string-keyed members, it also passes where the runtime types
 * a result as a `JsonObject`, which is how it travels to the encoder unchanged.
 */
export type Lazy<T extends JsonValue> = { readonly [lazyType]: T };

/**
 * A value that serialises itself in chunks. `write` must produce exactly the UTF-8 bytes of
 * `JSON.stringify(this.value())` — hence one line, since JSON.stringify never writes a raw CR or LF, which is what
 * lets an SSE `data:` line carry the chunks unscanned.
 */
export abstract class LazyJson<T extends JsonValue = JsonValue> implements Lazy<T> {
  declare readonly [lazyType]: T;

  /** The value itself (what `JSON.stringify` serialises, through `toJSON`). */
  abstract value(): T;

  /** Writes the bytes of `JSON.stringify(this.value())` to `out`, yielding whenever `out.pending`. */
  abstract write(out: ChunkWriter): Generator<void, void, undefined>;

  /**
   * Writes the same JSON text to another kind of sink, as `json`/`punct` calls (the BOS text block's sink, which
   * re-encodes the text, meets lazy values inside what it walks). By default one `JSON.stringify` of the value; a
   * large value writes its parts, yielding whenever `sink.pending`.
   */
  writeTo(sink: JsonSink): Iterable<void> {
    sink.json(JSON.stringify(this.value()));
    return [];
  }

  /**
   * `JSON.stringify` support. While the chunked encoder probes a subtree with `JSON.stringify` it must learn that
   * a lazy value sits inside (so it walks that subtree instead): then this throws a private marker rather than
   * building the value.
   */
  toJSON(): T {
    if (probing) throw lazyInside;
    return this.value();
  }
}

/** Marks a subtree that holds a `LazyJson` (returned by `probeStringify`). */
export const HAS_LAZY: unique symbol = Symbol('has lazy JSON');

/**
 * `JSON.stringify(value)` — or `HAS_LAZY` as soon as it meets a `LazyJson`, before building anything of it.
 * Values without one (every ordinary result) cost exactly one native `JSON.stringify`.
 */
export function probeStringify(value: unknown): string | undefined | typeof HAS_LAZY {
  const outer = probing;
  probing = true;
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error === lazyInside) return HAS_LAZY;
    throw error;
  } finally {
    probing = outer;
  }
}
