/**
 * The text block of a BOS result: the JSON of `structuredContent` written the way the contract's final-frame
 * example shows it (§5): `", "` and `": "` separators and every non-ASCII UTF-16 unit escaped as `\uXXXX`
 * (lowercase hex; an astral character becomes its two surrogate escapes, as Python's `ensure_ascii` writes it).
 * Parsing it gives exactly `structuredContent`.
 *
 * It is `JSON.stringify`'s output with those two changes and nothing else: outside strings JSON text is ASCII, so
 * only separators change there, and inside strings only non-ASCII characters do. One pass over the UTF-8 bytes
 * does both: on 17,000 records (4.6 MB of text) it took a fifth to a tenth of the time of the regular-expression
 * rewrites tried (a callback per string token; an indented `JSON.stringify` and two replaces).
 *
 * A result's text is written in pieces, one per record (`structuredTextPieces`): on Node 22, stringifying and
 * rewriting 18,500 records one by one costs a fraction of doing it to the whole 9 MB text at once, and the final
 * SSE frame then escapes the pieces one by one instead of one multi-megabyte string (`TextPieces`).
 */
import { jsonPieces } from '../../mcp/index.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const HEX = new TextEncoder().encode('0123456789abcdef');

/** Writes `\uXXXX` for one UTF-16 unit at `at`; returns the new end. */
function writeUnit(out: Uint8Array, at: number, unit: number): number {
  out[at] = BACKSLASH;
  out[at + 1] = 0x75; // u
  out[at + 2] = HEX[unit >> 12]!;
  out[at + 3] = HEX[(unit >> 8) & 15]!;
  out[at + 4] = HEX[(unit >> 4) & 15]!;
  out[at + 5] = HEX[unit & 15]!;
  return at + 6;
}

/** The contract-style JSON text of `value` (`null` when it has none, as for `undefined`). */
export function structuredText(value: unknown): string {
  return [...structuredTextPieces(value)].join('') || 'null';
}

/**
 * `structuredText(value)` in pieces: the pieces of `JSON.stringify(value)` that the final SSE frame writes
 * (`jsonPieces`: one per record of a long array), each rewritten. Every piece starts and ends outside a string,
 * so each can be rewritten on its own.
 */
export function* structuredTextPieces(value: unknown): Generator<string, void, undefined> {
  for (const piece of jsonPieces(value)) yield rewrite(piece);
}

/** `JSON.stringify` output rewritten to the contract form. */
function rewrite(json: string): string {
  const source = Buffer.from(json, 'utf8');
  // At most 3 output bytes per input byte: a 2-byte character becomes a 6-byte escape.
  const out = Buffer.allocUnsafe(source.length * 3);
  let at = 0;
  let inString = false;
  for (let i = 0; i < source.length;) {
    const c = source[i++]!;
    if (c < 0x80) {
      out[at++] = c;
      if (c === QUOTE) inString = !inString;
      // An escape's second byte is ASCII and never ends the string: copied as is.
      else if (c === BACKSLASH) out[at++] = source[i++]!;
      else if (!inString && (c === COMMA || c === COLON)) out[at++] = SPACE;
      continue;
    }
    // A UTF-8 sequence (only inside strings): one `\uXXXX` per UTF-16 unit.
    let point: number;
    if (c < 0xe0) point = ((c & 0x1f) << 6) | (source[i++]! & 0x3f);
    else if (c < 0xf0) point = ((c & 0x0f) << 12) | ((source[i++]! & 0x3f) << 6) | (source[i++]! & 0x3f);
    else {
      point =
        (((c & 0x07) << 18) |
          ((source[i++]! & 0x3f) << 12) |
          ((source[i++]! & 0x3f) << 6) |
          (source[i++]! & 0x3f)) -
        0x10000;
      at = writeUnit(out, at, 0xd800 + (point >> 10));
      point = 0xdc00 + (point & 0x3ff);
    }
    at = writeUnit(out, at, point);
  }
  // Every output byte is ASCII.
  return out.toString('latin1', 0, at);
}
