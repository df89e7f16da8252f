/**
 * JSON text in pieces, for final messages of megabytes. On Node 22 one `JSON.stringify` of a 19 MB message costs
 * several times the sum of stringifying its records one by one: the output grows as one huge string, and a text
 * block that repeats the structured content is a second multi-megabyte string to escape. `jsonPieces` gives the
 * same text in pieces of about a record each, which the SSE stream encodes into bounded chunks as they come, and
 * `TextPieces` lets a tool hand over a large text block without building it as one string.
 */
import type { JsonObject, JsonRpcId } from './wire.js';

/**
 * A text given as the pieces that make it up, in order. A final SSE frame escapes it piece by piece; everything
 * else (`JSON.stringify`, buffered answers, task stores) sees the whole text through `toJSON`.
 */
export class TextPieces {
  /** `pieces` is called once per serialisation, so it must give the same pieces every time. */
  constructor(readonly pieces: () => Iterable<string>) {}

  /** The whole text. */
  toJSON(): string {
    return [...this.pieces()].join('');
  }
}

/** Arrays up to this length are walked; in longer ones (records) each element is one `JSON.stringify`. */
const WALKED_ARRAY_MAX = 16;

/**
 * Only plain objects without a `toJSON` are walked: anything else (a `Date`, a boxed primitive) goes to
 * `JSON.stringify` whole.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/**
 * The JSON text of `value` as pieces whose concatenation is exactly `JSON.stringify(value)` (nothing for a value
 * that has none, such as `undefined`). Plain objects and short arrays are walked, each element of a long array is
 * one `JSON.stringify`, and a `TextPieces` is escaped piece by piece. Where the walk stops only changes the size
 * of the pieces, never the text: whatever is not walked is `JSON.stringify`'s (a `TextPieces` through `toJSON`).
 * A `toJSON` method is called without its property key. Outside a `TextPieces`, every piece starts and ends
 * outside a JSON string (a string is never split), so each piece can be rewritten on its own.
 */
export function* jsonPieces(value: unknown): Generator<string, void, undefined> {
  if (value instanceof TextPieces) {
    yield '"';
    // A high surrogate at a piece's end waits for its low half: escaped alone it would be `\udXXX`.
    let held = '';
    for (const piece of value.pieces()) {
      const text = held + piece;
      const last = text.charCodeAt(text.length - 1);
      held = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : '';
      yield JSON.stringify(held === '' ? text : text.slice(0, -1)).slice(1, -1);
    }
    yield `${JSON.stringify(held).slice(1, -1)}"`;
  } else if (Array.isArray(value)) {
    const walk = value.length <= WALKED_ARRAY_MAX;
    yield '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const separator = i === 0 ? '' : ',';
      if (walk && isWalked(item)) {
        if (i > 0) yield separator;
        yield* jsonPieces(item);
      } else yield separator + (stringify(item) ?? 'null');
    }
    yield ']';
  } else if (isPlainObject(value)) {
    let separator = '{';
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (isWalked(item)) {
        yield `${separator}${JSON.stringify(key)}:`;
        yield* jsonPieces(item);
      } else {
        const text = stringify(item);
        if (text === undefined) continue;
        yield `${separator}${JSON.stringify(key)}:${text}`;
      }
      separator = ',';
    }
    yield separator === '{' ? '{}' : '}';
  } else {
    const text = stringify(value);
    if (text !== undefined) yield text;
  }
}

function isWalked(value: unknown): boolean {
  return value instanceof TextPieces || Array.isArray(value) || isPlainObject(value);
}

/** `JSON.stringify`, typed as it behaves: `undefined`, functions and symbols have no JSON text. */
function stringify(value: unknown): string | undefined {
  return JSON.stringify(value);
}

/**
 * `result` with each `TextPieces` text of its `content` made one string, for a store that keeps the result as a
 * value (a task's result is cloned by the in-memory store; only a final frame benefits from pieces).
 */
export function withWholeTexts(result: JsonObject): JsonObject {
  const content = result.content;
  if (!Array.isArray(content)) return result;
  const whole = content.map((block) =>
    isPlainObject(block) && block.text instanceof TextPieces
      ? { ...block, text: block.text.toJSON() }
      : block,
  );
  return { ...result, content: whole };
}

/** A success response as pieces (key order: jsonrpc, id, result), the same text as `resultJson`. */
export function resultPieces(id: JsonRpcId | null, result: object): Iterable<string> {
  return jsonPieces({ jsonrpc: '2.0', id, result });
}
