/**
 * The BOS text block (`structuredText`, and in pieces `structuredTextPieces`) and the final message that carries
 * it (as one `JSON.stringify`, and in pieces as the SSE final frame writes it) are byte-identical to an
 * independent writer of the contract's text form, kept here as the oracle, for any structured content: non-ASCII,
 * astral characters, lone surrogates, control characters, quotes and backslashes, separators inside strings,
 * nested attributes, empty arrays and objects, nulls and numbers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';

import { structuredText } from '../../../lambda/bos/extension/index.js';
import { directResult, envelopeResult } from '../../../lambda/bos/tools/results.js';
import type { PublicContext } from '../../../lambda/bos/directory/types.js';
import type { FederationResult } from '../../../lambda/federation/index.js';
import type { McpRequestContext } from '../../../lambda/mcp/index.js';
import type { JsonObject, JsonValue } from '../../../lambda/mcp/index.js';
import { resultJson } from '../../../lambda/mcp/json/json-rpc.js';
import { resultPieces } from '../../../lambda/mcp/json/json-pieces.js';
import { TextPieces } from '../../../lambda/mcp/index.js';
import { structuredTextPieces } from '../../../lambda/bos/extension/text-content.js';

const textPieces = (value: JsonObject) => new TextPieces(() => structuredTextPieces(value));

const CONTRACT = new URL('../../../../shared/contract/bos-source-results-v1.txt', import.meta.url);

/** The oracle: the contract's text form written value by value (string concatenation, one escape per string). */
function oracle(value: unknown): string {
  return write(value) ?? 'null';
}
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value === null ? 'null' : writeObject(value);
    default:
      return undefined;
  }
}
function writeObject(value: object): string {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return write((value as { toJSON: () => unknown }).toJSON()) ?? 'null';
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ', ') + (write(value[i]) ?? 'null');
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const item = write((value as Record<string, unknown>)[key]);
    if (item === undefined) continue;
    out += `${first ? '' : ', '}${quote(key)}: ${item}`;
    first = false;
  }
  return `${out}}`;
}
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/g;
function quote(text: string): string {
  return JSON.stringify(text).replace(
    NON_ASCII,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const character = fc.oneof(
  fc.constantFrom('"', '\\', '/', ',', ':', ', ', ': ', '{', '}', '[', ']', '\n', '\r', '\t', '\b', '\f'),
  fc.constantFrom('\u0000', '\u001f', '\u007f', '\u0080', '\u00e9', 'Zo\u00eb', '\u0141ukasz', 'S\u00e3o'),
  fc.constantFrom('\u2028', '\u2029', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\\u00e9'),
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);
const text = fc.array(character, { maxLength: 12 }).map((parts) => parts.join(''));
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-0, 1e21, 5e-324, 0.1, -1.5e-7));
const { json } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.constantFrom([], {}),
    fc.array(tie('json'), { maxLength: 5 }),
    fc.dictionary(text, tie('json'), { maxKeys: 5 }),
  ),
}));
/** Records shaped like federated ones, with free-form nested attributes. */
const record = fc.record({
  record_ref: text,
  display_name: fc.option(text),
  email: fc.option(text),
  sources: fc.array(fc.record({ source_type: text, external_id: text, capabilities: fc.array(text) }), {
    maxLength: 2,
  }),
  identity_match: fc.option(fc.record({ matched_on: fc.array(text), source_count: fc.integer() })),
  attributes: fc.dictionary(text, json, { maxKeys: 4 }),
});
const structured = fc.record({
  result: fc.record({ result: fc.array(record, { maxLength: 8 }), metadata: fc.dictionary(text, json) }),
  context: fc.dictionary(text, json, { maxKeys: 3 }),
}) as fc.Arbitrary<JsonObject>;

describe('BOS text block', () => {
  it('matches the oracle for any value (structuredText)', () => {
    fc.assert(
      fc.property(fc.oneof(json, structured), (value) => {
        assert.equal(structuredText(value), oracle(value));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the literal contract text for a known value (the oracle itself is checked)', () => {
    const value = { a: [1, 'Zoë', null], 'k:,': 'x, y: \\u00e9 é 😀', e: {}, f: [] };
    const expected =
      '{"a": [1, "Zo\\u00eb", null], "k:,": "x, y: \\\\u00e9 \\u00e9 \\ud83d\\ude00", "e": {}, "f": []}';
    assert.equal(structuredText(value), expected);
    assert.equal(oracle(value), expected);
    assert.deepEqual(JSON.parse(expected), value);
  });

  it('writes the whole final message byte for byte as the oracle says', () => {
    fc.assert(
      fc.property(structured, (content) => {
        const result = {
          content: [{ type: 'text', text: structuredText(content) }],
          structuredContent: content,
          isError: false,
        };
        const expected = JSON.stringify({
          jsonrpc: '2.0',
          id: 'call-1',
          result: { ...result, content: [{ type: 'text', text: oracle(content) }] },
        });
        assert.equal(resultJson('call-1', result), expected);
        // As the final SSE frame writes it: the text in pieces, one per record, escaped piece by piece.
        const pieces = { ...result, content: [{ type: 'text', text: textPieces(content) }] };
        assert.equal([...resultPieces('call-1', pieces)].join(''), expected);
      }),
      { numRuns: 300 },
    );
  });

  it('matches the oracle for large results of realistic records', () => {
    const names = [
      'Zoë Berg',
      'Łukasz García',
      'José "Pepe" Costa',
      'Søren\\Dubois',
      'Ada\nLovelace',
      '😀 Emoji',
    ];
    const records = Array.from({ length: 3_000 }, (_, i) => ({
      record_ref: `bos:person:${i}`,
      display_name: names[i % names.length] ?? null,
      email: i % 7 === 0 ? null : `p${i}@example.com`,
      sources: [{ source_type: 'hr', external_id: `hr-${i}`, capabilities: ['read'], version: null }],
      identity_match: i % 3 === 0 ? { matched_on: ['email'], source_count: 2 } : null,
      attributes: { office: i % 2 === 0 ? 'São Paulo' : 'Berlin', level: i % 5, tags: [], extra: {} },
    }));
    const content: JsonObject = { result: records, metadata: { result_count: records.length } };
    assert.equal(structuredText(content), oracle(content));
  });

  it('writes the contract final frame byte for byte from its structured content (contract §5)', (t) => {
    let contract: string;
    try {
      contract = readFileSync(CONTRACT, 'utf8');
    } catch {
      t.skip('../shared/contract is absent; cannot compare with the contract final frame');
      return;
    }
    const line = /^data: (\{"jsonrpc":"2\.0","id".*)$/m.exec(contract)?.[1] ?? '{}';
    const frame = JSON.parse(line) as { result: { structuredContent: JsonObject; _meta: JsonObject } };
    const { structuredContent, _meta } = frame.result;
    const result = {
      content: [{ type: 'text', text: structuredText(structuredContent) }],
      structuredContent,
      isError: true,
      _meta,
    };
    assert.equal(resultJson('search-1', result), line);
  });

  it('builds direct and envelope tool results whose final message matches the oracle', () => {
    const federation = (count: number) =>
      ({
        records: Array.from({ length: count }, (_, i) => ({ record_ref: `r${i}`, display_name: 'Zoë' })),
        metadata: { completeness: count === 3 ? 'partial' : 'complete', result_count: count },
      }) as unknown as FederationResult;
    const context = { context_id: 'ctx-1', tenant_id: 't' } as unknown as PublicContext;
    for (const shape of ['sessionful', 'stateless'] as const) {
      const ctx = { shape } as McpRequestContext;
      for (const count of [0, 3, 4, 50]) {
        for (const result of [
          directResult(federation(count), ctx),
          envelopeResult(federation(count), context, ctx),
        ]) {
          const expected = JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            result: { ...result, content: [{ type: 'text', text: oracle(result.structuredContent) }] },
          });
          assert.equal(
            resultJson(1, result as unknown as JsonObject),
            expected,
            `${shape}, ${count} records`,
          );
          assert.equal([...resultPieces(1, result)].join(''), expected, `${shape}, ${count} records, pieces`);
          assert.equal(result.isError, count === 3);
        }
      }
    }
  });
});
