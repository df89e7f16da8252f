/**
 * `jsonPieces` gives exactly the text of `JSON.stringify` for any value, however the walk splits it: long and
 * short arrays, nested objects, values JSON skips or writes as null, `toJSON`, boxed primitives, and texts given
 * as `TextPieces` (escaped piece by piece, or whole where the walk does not reach them).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';

import { jsonPieces, TextPieces } from '../../../lambda/mcp/index.js';
import { resultPieces } from '../../../lambda/mcp/json/json-pieces.js';
import { resultJson } from '../../../lambda/mcp/json/json-rpc.js';

const character = fc.oneof(
  fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u2028', '\ud800', '\udc00', 'é', '😀', ',', ':'),
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
);
const text = fc.array(character, { maxLength: 10 }).map((parts) => parts.join(''));

/** Any text, sometimes as `TextPieces` cut between whole characters. */
const textOrPieces = fc.oneof(
  text,
  fc
    .array(fc.array(character, { maxLength: 6 }), { maxLength: 5 })
    .map((pieces) => new TextPieces(() => pieces.map((piece) => piece.join('')))),
);

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.constantFrom(null, true, false, undefined, 0, -0, 1.5, NaN, Infinity, () => 1, Symbol('s')),
    fc.constantFrom(new Date(0), Object.assign(Object(7) as object), { toJSON: () => 'own' }, []),
    textOrPieces,
    fc.array(tie('value'), { maxLength: 4 }),
    // Longer than the walked arrays: elements are stringified whole.
    fc.array(tie('value'), { minLength: 17, maxLength: 20 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
}));

const joined = (input: unknown): string => [...jsonPieces(input)].join('');

describe('jsonPieces', () => {
  it('concatenates to exactly JSON.stringify for any value', () => {
    fc.assert(
      fc.property(value, (input) => {
        const expected = JSON.stringify(input) as string | undefined;
        assert.equal(joined(input), expected ?? '');
      }),
      { numRuns: 1_000 },
    );
  });

  it('writes a TextPieces inside a message as escaped pieces, never as one string', () => {
    const seen: string[] = [];
    const block = new TextPieces(() => ['{"a": ', '"Zoë"', '}'].map((piece) => (seen.push(piece), piece)));
    const pieces = [...resultPieces(7, { content: [{ type: 'text', text: block }], isError: false })];
    assert.deepEqual(seen, ['{"a": ', '"Zoë"', '}']);
    assert.ok(pieces.includes('\\"Zo\u00eb\\"'));
    assert.equal(
      pieces.join(''),
      resultJson(7, { content: [{ type: 'text', text: '{"a": "Zoë"}' }], isError: false }),
    );
  });

  it('writes each element of a long array as one piece', () => {
    const records = Array.from({ length: 100 }, (_, i) => ({ i, name: `n${i}`, tags: ['x'] }));
    const pieces = [...jsonPieces({ result: records })];
    // `{"result":`, `[`, one piece per record, `]`, `}`.
    assert.equal(pieces.length, 2 + 100 + 2);
    assert.equal(pieces.join(''), JSON.stringify({ result: records }));
  });

  it('throws where JSON.stringify throws', () => {
    assert.throws(() => joined({ a: [1, { b: 2n }] }), TypeError);
  });
});
