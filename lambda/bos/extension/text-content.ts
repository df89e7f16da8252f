/**
 * The text block of a BOS result: the JSON of `structuredContent` written the way the contract's final-frame
 * example shows it (§5): `", "` and `": "` separators and non-ASCII escaped as `\uXXXX`. Parsing it gives exactly
 * `structuredContent`.
 *
 * Both forms below come from `JSON.stringify` output (per record, through the runtime's chunked walker) by one
 * pass over its characters: a space after every `,` and `:` outside strings, and `\uXXXX` (lowercase hex) for every
 * UTF-16 unit above ASCII, so an astral character becomes its two surrogate escapes, as Python's `ensure_ascii`
 * writes it. Nothing else changes, so the text is JSON.stringify's with other separators and escapes.
 *
 * On the wire the text is itself a JSON string. The Python-style text is ASCII without control characters (JSON
 * escaped those), so `JSON.stringify(text)` only puts a `\` before each `"` and `\`: `StructuredText` writes that
 * escaped form directly into the response's chunks, and the text is never built as one string.
 */
import { ChunkWriter, LazyJson, writeJson } from '../../mcp/index.js';
import type { JsonObject, JsonSink } from '../../mcp/index.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const LETTER_U = 0x75;
const HEX = new TextEncoder().encode('0123456789abcdef');
/**
 * Most output bytes per input byte of UTF-8 JSON: 3.5, for a 2-byte character (or half a 4-byte one) written
 * `\\uXXXX` in the escaped form; rounded up.
 */
const MAX_EXPANSION = 4;
/** A UTF-8 sequence or an escape may run this many bytes past a window's end. */
const WINDOW_OVERRUN = 4;
/** What each byte of UTF-8 JSON text needs; one table load decides the common case (a plain byte). */
const PLAIN = 0;
const SEPARATOR = 1;
const QUOTE_BYTE = 2;
const ESCAPE = 3;
const NON_ASCII = 4;
const BYTE_KIND = new Uint8Array(256).fill(NON_ASCII, 0x80);
BYTE_KIND[COMMA] = SEPARATOR;
BYTE_KIND[COLON] = SEPARATOR;
BYTE_KIND[QUOTE] = QUOTE_BYTE;
BYTE_KIND[BACKSLASH] = ESCAPE;

/** Texts up to this size are encoded into one reused buffer. */
const SCRATCH_BYTES = 1 << 16;

const encoder = new TextEncoder();
// Allocated on first use, so importing this module allocates nothing.
let scratch: Uint8Array | undefined;

/** UTF-8 of `text` in a buffer that is only valid until the next call. */
function encodeTransient(text: string): Uint8Array {
  const most = text.length * 3;
  const target = most <= SCRATCH_BYTES ? (scratch ??= new Uint8Array(SCRATCH_BYTES)) : new Uint8Array(most);
  return target.subarray(0, encoder.encodeInto(text, target).written);
}

/** Writes `\uXXXX` for one UTF-16 unit (`\\uXXXX` when escaped) at `at`; returns the new end. */
function writeUnit(buffer: Uint8Array, at: number, unit: number, escaped: boolean): number {
  if (escaped) buffer[at++] = BACKSLASH;
  buffer[at++] = BACKSLASH;
  buffer[at++] = LETTER_U;
  buffer[at++] = HEX[unit >> 12]!;
  buffer[at++] = HEX[(unit >> 8) & 15]!;
  buffer[at++] = HEX[(unit >> 4) & 15]!;
  buffer[at++] = HEX[unit & 15]!;
  return at;
}

/**
 * Rewrites JSON text into the Python-style form, as bytes in `out`. `escaped` writes it as the contents of a JSON
 * string (what the wire carries between the text's quotes). It reads the text's UTF-8 bytes (one native encode
 * into a reused buffer, then typed-array reads, which measured cheaper than `charCodeAt` on the mix of one- and
 * two-byte strings JSON.stringify returns).
 */
class PythonStyleSink implements JsonSink {
  readonly #out: ChunkWriter;
  readonly #escaped: boolean;
  /** Input bytes rewritten per `reserve`, so one reservation always fits a chunk. */
  readonly #window: number;

  constructor(out: ChunkWriter, escaped: boolean) {
    this.#out = out;
    this.#escaped = escaped;
    this.#window = Math.floor(out.chunkBytes / MAX_EXPANSION) - WINDOW_OVERRUN;
  }

  get pending(): boolean {
    return this.#out.pending;
  }

  punct(char: string): void {
    const out = this.#out;
    out.reserve(2);
    out.buffer[out.length++] = char.charCodeAt(0);
    if (char === ',' || char === ':') out.buffer[out.length++] = SPACE;
  }

  /** A lazy value inside the structured content writes its JSON text through this sink. */
  lazy(value: LazyJson): Iterable<void> {
    return value.writeTo(this);
  }

  json(text: string): void {
    const source = encodeTransient(text);
    this.#rewrite(source, 0, source.length);
  }

  jsonBytes(source: Uint8Array, start: number, end: number): void {
    this.#rewrite(source, start, end);
  }

  #rewrite(source: Uint8Array, from: number, to: number): void {
    const out = this.#out;
    const escaped = this.#escaped;
    let inString = false;
    for (let start = from; start < to;) {
      const end = Math.min(to, start + this.#window);
      out.reserve(MAX_EXPANSION * (end - start + WINDOW_OVERRUN));
      const buffer = out.buffer;
      let at = out.length;
      let i = start;
      while (i < end) {
        const c = source[i++]!;
        const kind = BYTE_KIND[c]!;
        if (kind === PLAIN) {
          buffer[at++] = c;
          // The rest of a run of plain bytes in a loop of its own: the byte that ends it is the only branch
          // taken the other way (one test per byte against a branch on every kind, measured ~25 % faster).
          while (i < end) {
            const d = source[i]!;
            if (BYTE_KIND[d] !== PLAIN) break;
            buffer[at++] = d;
            i++;
          }
        } else if (kind === SEPARATOR) {
          buffer[at++] = c;
          if (!inString) buffer[at++] = SPACE;
        } else if (kind === QUOTE_BYTE) {
          if (escaped) buffer[at++] = BACKSLASH;
          buffer[at++] = QUOTE;
          inString = !inString;
        } else if (kind === ESCAPE) {
          // An escape (only inside strings); its second byte is ASCII, copied as is (escaped if `"` or `\`).
          if (escaped) buffer[at++] = BACKSLASH;
          buffer[at++] = BACKSLASH;
          const next = source[i++]!;
          if (escaped && (next === QUOTE || next === BACKSLASH)) buffer[at++] = BACKSLASH;
          buffer[at++] = next;
        } else {
          // A UTF-8 sequence (JSON text is ASCII outside strings): one `\uXXXX` per UTF-16 unit.
          let point: number;
          if (c < 0xe0) point = ((c & 0x1f) << 6) | (source[i++]! & 0x3f);
          else if (c < 0xf0)
            point = ((c & 0x0f) << 12) | ((source[i++]! & 0x3f) << 6) | (source[i++]! & 0x3f);
          else {
            point =
              ((c & 0x07) << 18) |
              ((source[i++]! & 0x3f) << 12) |
              ((source[i++]! & 0x3f) << 6) |
              (source[i++]! & 0x3f);
            point -= 0x10000;
            at = writeUnit(buffer, at, 0xd800 + (point >> 10), escaped);
            point = 0xdc00 + (point & 0x3ff);
          }
          at = writeUnit(buffer, at, point, escaped);
        }
      }
      out.length = at;
      start = i;
    }
  }
}

/** The Python-style JSON text of `value` (`null` when it has none, as for `undefined`). */
export function structuredText(value: unknown): string {
  const out = new ChunkWriter();
  const walk = writeJson(value, new PythonStyleSink(out, false));
  let step = walk.next();
  while (step.done !== true) step = walk.next();
  if (!step.value) return 'null';
  out.end();
  let text = '';
  for (const chunk of out.take())
    text += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString('latin1');
  return text;
}

/**
 * A text block's `text` for a large result: `structuredText(structured)`, written straight into the response's
 * chunks (as the JSON string the wire carries) instead of being built as one string.
 */
export class StructuredText extends LazyJson<string> {
  readonly #structured: JsonObject;

  constructor(structured: JsonObject) {
    super();
    this.#structured = structured;
  }

  value(): string {
    return structuredText(this.#structured);
  }

  *write(out: ChunkWriter): Generator<void, void, undefined> {
    out.punct('"');
    if (!(yield* writeJson(this.#structured, new PythonStyleSink(out, true)))) out.text('null');
    out.punct('"');
  }
}
