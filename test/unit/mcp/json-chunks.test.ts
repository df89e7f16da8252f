/**
 * JSON written in bounded chunks (`lambda/mcp/json/json-chunks.ts`): the bytes are exactly `JSON.stringify`'s, every
 * chunk is bounded and decodes on its own, lazy values write themselves (and only when the walk reaches them),
 * and a response with no lazy value keeps the one-string path.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';

import { ChunkedJson, jsonChunks, LazyJson, writeJson } from '../../../lambda/mcp/index.js';
import type { ChunkWriter, JsonObject, JsonValue } from '../../../lambda/mcp/index.js';
import { resultBody, resultJson } from '../../../lambda/mcp/json/json-rpc.js';

const strict = new TextDecoder('utf-8', { fatal: true });

/** Characters that stress JSON escaping and UTF-8: quotes, controls, separators, non-ASCII, astral, lone surrogates. */
const character = fc.oneof(
  fc.constantFrom(
    '"',
    '\\',
    '/',
    ',',
    ':',
    '{',
    '}',
    '[',
    ']',
    '\n',
    '\r',
    '\t',
    '\b',
    '\f',
    '\u0000',
    '\u001f',
  ),
  fc.constantFrom(
    '\u007f',
    '\u0080',
    '\u00e9',
    '\u0141',
    '\u2028',
    '\u2029',
    '\ud800',
    '\udfff',
    '\ud83d\ude00',
  ),
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);
const text = fc.array(character, { maxLength: 10 }).map((parts) => parts.join(''));
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, NaN, Infinity, -Infinity, 1e21, 5e-324, 0.1),
);

/** JSON values plus what JSON.stringify treats specially (undefined, functions, Dates, boxed values, toJSON). */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.constantFrom(undefined, () => 1, new Date(0), new String('boxed'), new Number(7), new Boolean(false)),
    fc.constant({ toJSON: (key: string) => `key:${key}` }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(text, tie('value'), { maxKeys: 5 }),
  ),
}));

/** Plain JSON values: what a `LazyJson` may stand for. */
const { json } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    text,
    fc.array(tie('json'), { maxLength: 5 }),
    fc.dictionary(text, tie('json'), { maxKeys: 5 }),
  ),
}));

function joined(chunks: Iterable<Uint8Array>, chunkBytes: number): string {
  let out = '';
  for (const chunk of chunks) {
    assert.ok(chunk.byteLength <= chunkBytes, `chunk of ${chunk.byteLength} bytes`);
    assert.ok(chunk.byteLength > 0, 'empty chunk');
    // Each chunk ends between characters, so it decodes on its own.
    out += strict.decode(chunk);
  }
  return out;
}

/** A lazy value over `inner` that counts how often its plain value was built. */
class CountingLazy extends LazyJson {
  built = 0;
  written = 0;
  constructor(readonly inner: JsonValue) {
    super();
  }
  value(): JsonValue {
    this.built++;
    return this.inner;
  }
  *write(out: ChunkWriter): Generator<void, void, undefined> {
    this.written++;
    yield* writeJson(this.inner, out);
  }
}

describe('jsonChunks', () => {
  it('writes exactly JSON.stringify for any value, in chunks that are bounded and decode on their own', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(64, 100, 4096), (input, chunkBytes) => {
        const wrapped = { input, list: [input, input] };
        assert.equal(joined(jsonChunks(wrapped, chunkBytes), chunkBytes), JSON.stringify(wrapped));
      }),
      { numRuns: 300 },
    );
  });

  it('never puts a raw CR or LF in the bytes, so one SSE data line carries them', () => {
    const out = joined(jsonChunks({ a: 'line\nbreak\r', b: ['\r\n'] }, 64), 64);
    assert.equal(/[\r\n]/.test(out), false);
  });

  it('passes the property key to toJSON, as JSON.stringify does', () => {
    const keyed = { toJSON: (key: string) => `at ${key}` };
    const input = { top: keyed, list: [keyed, keyed] };
    assert.equal(joined(jsonChunks(input, 64), 64), JSON.stringify(input));
  });

  it('refuses a circular structure and a value without JSON text', () => {
    const circular: Record<string, unknown> = {};
    circular.self = { again: circular };
    assert.throws(() => [...jsonChunks(circular)], TypeError);
    assert.throws(() => [...jsonChunks(undefined)], TypeError);
  });
});

describe('lazy values', () => {
  it('writes a lazy value found anywhere in the value itself, without building its plain value', () => {
    fc.assert(
      fc.property(value, json, (before, inner) => {
        const lazy = new CountingLazy(inner);
        const message = { before, nested: [{ deep: [1, { lazy }] }], after: before } as unknown as JsonObject;
        const chunks = joined(new ChunkedJson(message, 64), 64);
        assert.equal(lazy.built, 0);
        assert.equal(lazy.written, 1);
        assert.equal(chunks, JSON.stringify(message));
        assert.equal(lazy.built, 1);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the one-string path (resultJson) for a result without a lazy value', () => {
    const result: JsonObject = { content: [{ type: 'text', text: 'plain' }], isError: false };
    const body = resultBody(7, result);
    assert.equal(typeof body, 'string');
    assert.equal(body, resultJson(7, result));
  });

  it('gives a chunked body for a result with a lazy value, whose text and chunks equal resultJson', async () => {
    const lazy = new CountingLazy('x'.repeat(200_000));
    const result = { content: [{ type: 'text', text: lazy }] } as unknown as JsonObject;
    const body = resultBody('r-1', result);
    assert.ok(body instanceof ChunkedJson);
    const expected = resultJson('r-1', result);
    assert.equal(body.text(), expected);
    assert.equal(await new Response(body.stream()).text(), expected);
  });

  it('fails at construction when the first chunk cannot be written, before any byte is committed', () => {
    const lazy = new CountingLazy('ok');
    const message = { lazy, bad: 10n } as unknown as JsonObject;
    assert.throws(() => new ChunkedJson(message), TypeError);
  });

  it('writes a chunk only when the stream is read, and stops the walk when the reader cancels', async () => {
    const records = Array.from({ length: 2_000 }, (_, i) => ({ i, name: `record ${i}`.repeat(10) }));
    const lazy = new CountingLazy(records);
    const body = new ChunkedJson({ lazy } as unknown as JsonObject);
    const reader = body.stream().getReader();
    const first = await reader.read();
    assert.equal(first.done, false);
    await reader.cancel();
    assert.deepEqual(body.next(), { done: true, value: undefined });
  });
});
