/**
 * A large final result serialises its records once for both halves of the final frame (`RecordArray`: the text
 * block's pass captures each record's JSON as UTF-8 in pooled buffers, `structuredContent` copies it). The bytes
 * must be exactly those of the plain result, whatever the records hold and however the output is chunked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';

import {
  CAPTURE_CHUNK_BYTES,
  CapturedBytes,
  poolBytesFor,
  pooledCaptureBuffers,
} from '../../../lambda/bos/extension/captured-bytes.js';
import { RecordArray } from '../../../lambda/bos/extension/record-array.js';
import { structuredText } from '../../../lambda/bos/extension/index.js';
import { directResult, LAZY_TEXT_MIN_RECORDS } from '../../../lambda/bos/tools/results.js';
import type { FederationResult } from '../../../lambda/federation/index.js';
import { ChunkedJson, ChunkWriter } from '../../../lambda/mcp/index.js';
import type { JsonObject, McpRequestContext } from '../../../lambda/mcp/index.js';

const character = fc.oneof(
  fc.constantFrom('"', '\\', ',', ':', '\n', '\u0000', 'é', 'Łukasz', '\u2028', '\ud800', '😀'),
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);
const text = fc.array(character, { maxLength: 40 }).map((parts) => parts.join(''));
const record = fc.record({
  record_ref: text,
  display_name: fc.option(text),
  sources: fc.array(fc.record({ source_type: text, external_id: text }), { maxLength: 2 }),
  attributes: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.constant(null)), { maxKeys: 3 }),
});

const ctx = { shape: 'stateless' } as McpRequestContext;

function federation(records: readonly unknown[]): FederationResult {
  return {
    records,
    metadata: { completeness: 'complete', result_count: records.length },
  } as unknown as FederationResult;
}

/** The bytes of `body`; every chunk holds whole characters and at most `chunkBytes`. */
function bodyString(body: ChunkedJson, chunkBytes: number): string {
  let out = '';
  for (const chunk of body) {
    assert.ok(chunk.byteLength <= chunkBytes);
    out += new TextDecoder('utf-8', { fatal: true }).decode(chunk);
  }
  return out;
}

/** What the final message must be: the plain result, its text block one string. */
function expectedMessage(records: readonly unknown[]): string {
  const plain = JSON.parse(
    JSON.stringify({ result: records, metadata: federation(records).metadata }),
  ) as JsonObject;
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    result: {
      content: [{ type: 'text', text: structuredText(plain) }],
      structuredContent: plain,
      isError: false,
      resultType: 'complete',
    },
  });
}

/** What `array.write` writes (structuredContent's records), through 256-byte chunks. */
function writtenText(array: RecordArray): string {
  const out = new ChunkWriter(256);
  const chunks: Uint8Array[] = [];
  for (const _ of array.write(out)) chunks.push(...out.take());
  out.end();
  chunks.push(...out.take());
  return Buffer.concat(chunks).toString('utf8');
}

describe('RecordArray (final result records serialised once)', () => {
  it('writes the final message byte for byte as the plain result, at any chunk size', () => {
    fc.assert(
      fc.property(
        // Up to 60 records: several of the batches JSON.stringify serialises at once, the last one partial.
        fc.array(record, { minLength: LAZY_TEXT_MIN_RECORDS, maxLength: 60 }),
        fc.constantFrom(64, 97, 1000, 65_536),
        (records, chunkBytes) => {
          const result = directResult(federation(records), ctx);
          const structured = result.structuredContent as { result: unknown };
          assert.ok(structured.result instanceof RecordArray);
          const message = { jsonrpc: '2.0', id: 7, result } as unknown as JsonObject;
          assert.equal(
            bodyString(new ChunkedJson(message, chunkBytes), chunkBytes),
            expectedMessage(records),
          );
          // JSON.stringify (batches) sees the plain records through toJSON.
          assert.equal(JSON.stringify(message), expectedMessage(records));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('serialises each record once for both halves (twice without the capture)', () => {
    let calls = 0;
    const counted = Array.from({ length: 500 }, (_, i) => ({
      toJSON: () => {
        calls++;
        return { record_ref: `bos:person:${i}`, display_name: `Zoë ${i}` };
      },
    }));
    const result = directResult(federation(counted), ctx);
    const body = new ChunkedJson({ jsonrpc: '2.0', id: 7, result } as unknown as JsonObject, 1000);
    const text = bodyString(body, 1000);
    assert.equal(calls, counted.length);
    const parsed = JSON.parse(text) as {
      result: { content: { text: string }[]; structuredContent: unknown };
    };
    assert.deepEqual(JSON.parse(parsed.result.content[0]!.text), parsed.result.structuredContent);
    assert.equal((parsed.result.structuredContent as { result: unknown[] }).result.length, 500);
  });

  it('returns the capture to the pool when the result is written with JSON.stringify (batches)', () => {
    const records = Array.from({ length: 3_000 }, (_, i) => ({ record_ref: `r${i}`, name: 'x'.repeat(40) }));
    const result = directResult(federation(records), ctx);
    // Buffers in the pool first, so that the capture takes them from it (3,000 records need 3).
    const warm = new CapturedBytes();
    warm.append('x'.repeat(CAPTURE_CHUNK_BYTES * 4));
    warm.release();
    const before = pooledCaptureBuffers();
    // The text block's toJSON walks the records through a capture; structuredContent's toJSON gives it back.
    const text = JSON.stringify({ jsonrpc: '2.0', id: 7, result });
    assert.equal(text, expectedMessage(records));
    assert.equal(pooledCaptureBuffers(), before);
  });

  it('writes records that cross the capture buffers byte for byte too (text rewritten from the text then)', () => {
    // ~21 KiB per record: every third one crosses a 64 KiB capture buffer, so both ways of handing a record to the
    // text block run (its captured bytes when they lie in one buffer, its text otherwise).
    const long = (i: number) => `${'é😀"\\,: x'.repeat(1500)}${i}`;
    const records = Array.from({ length: 9 }, (_, i) => ({ record_ref: `r${i}`, display_name: long(i) }));
    const result = directResult(federation(records), ctx);
    const message = { jsonrpc: '2.0', id: 7, result } as unknown as JsonObject;
    assert.equal(bodyString(new ChunkedJson(message, 65_536), 65_536), expectedMessage(records));
  });

  it('writes what JSON.stringify writes for records without JSON (null), wherever they fall in a batch', () => {
    const records = Array.from({ length: 40 }, (_, i) =>
      i % 7 === 0 ? undefined : i % 5 === 0 ? { toJSON: () => undefined } : { record_ref: `r${i}` },
    );
    const array = new RecordArray(records);
    for (const _ of array.writeTo(new ChunkWriter(256)));
    assert.equal(writtenText(array), JSON.stringify(records));
    assert.match(JSON.stringify(records), /^\[null,\{"record_ref":"r1"\}/);
  });

  it('serialises again, whole, when the text pass was cut short (no partial capture is replayed)', () => {
    const records = Array.from({ length: 2_000 }, (_, i) => ({
      record_ref: `r${i}`,
      name: 'é'.repeat(i % 50),
    }));
    const array = new RecordArray(records);
    const pass = array.writeTo(new ChunkWriter(256))[Symbol.iterator]();
    for (let i = 0; i < 5; i++) pass.next();
    pass.return?.();
    assert.equal(writtenText(array), JSON.stringify(records));
  });
});

describe('CapturedBytes', () => {
  it('replays exactly the UTF-8 of what was appended, across buffers, in whole characters', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), fc.constantFrom(64, 97, 4096), (parts, chunkBytes) => {
        const capture = new CapturedBytes();
        // Long texts cross capture buffers.
        const long = parts.map((part, i) => (i % 7 === 0 ? part.repeat(2_000) : part));
        for (const part of long) capture.append(part);
        const out = new ChunkWriter(chunkBytes);
        const chunks: Uint8Array[] = [];
        for (const _ of capture.replay(out)) chunks.push(...out.take());
        out.end();
        chunks.push(...out.take());
        let decoded = '';
        for (const chunk of chunks) {
          assert.ok(chunk.byteLength <= chunkBytes);
          decoded += new TextDecoder('utf-8', { fatal: true }).decode(chunk);
        }
        // Each part is encoded on its own (a lone surrogate at a part's end is U+FFFD, as in the capture).
        assert.equal(decoded, Buffer.concat(long.map((part) => Buffer.from(part, 'utf8'))).toString('utf8'));
        assert.throws(() => capture.append('x'), /already replayed/);
      }),
      { numRuns: 60 },
    );
  });

  it('hands a JSON text to the sink as the bytes it captured when they lie in one buffer, else as text', () => {
    const calls: string[] = [];
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const sink = {
      json: (text: string) => calls.push(`text ${text}`),
      jsonBytes: (source: Uint8Array, start: number, end: number) =>
        calls.push(`bytes ${decoder.decode(source.subarray(start, end))}`),
      punct: () => undefined,
      pending: false,
      lazy: () => [],
    };
    const capture = new CapturedBytes();
    const fits = JSON.stringify('é😀 fits');
    capture.appendJson(fits, sink);
    capture.append('x'.repeat(CAPTURE_CHUNK_BYTES - 100 - Buffer.byteLength(fits)));
    const crosses = JSON.stringify('y'.repeat(200));
    capture.appendJson(crosses, sink);
    assert.deepEqual(calls, [`bytes ${fits}`, `text ${crosses}`]);
    const out = new ChunkWriter();
    const chunks: Uint8Array[] = [];
    for (const _ of capture.replay(out)) chunks.push(...out.take());
    out.end();
    chunks.push(...out.take());
    assert.equal(
      Buffer.concat(chunks).toString('utf8'),
      `${fits}${'x'.repeat(CAPTURE_CHUNK_BYTES - 100 - Buffer.byteLength(fits))}${crosses}`,
    );
  });

  it('returns its buffers to the pool once replayed or released, so the next capture reuses them', () => {
    const first = new CapturedBytes();
    first.append('x'.repeat(CAPTURE_CHUNK_BYTES * 3));
    const out = new ChunkWriter();
    for (const _ of first.replay(out)) out.take();
    const pooled = pooledCaptureBuffers();
    assert.ok(pooled >= 3, `pooled ${pooled}`);
    const second = new CapturedBytes();
    assert.equal(pooledCaptureBuffers(), pooled - 1);
    second.release();
    second.release();
    assert.equal(pooledCaptureBuffers(), pooled);
  });
});

describe('capture pool size', () => {
  it('keeps 128 MiB, or an eighth of the function memory when that is less', () => {
    const mib = 1024 * 1024;
    assert.equal(poolBytesFor('1024'), 128 * mib);
    assert.equal(poolBytesFor('10240'), 128 * mib);
    assert.equal(poolBytesFor('512'), 64 * mib);
    assert.equal(poolBytesFor('128'), 16 * mib);
    assert.equal(poolBytesFor(undefined), 128 * mib);
    assert.equal(poolBytesFor('not a number'), 128 * mib);
  });
});

describe('ChunkWriter#bytes', () => {
  it('copies UTF-8 bytes into chunks that each end between characters', () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 30 }),
        fc.integer({ min: 64, max: 300 }),
        (parts, chunkBytes) => {
          const out = new ChunkWriter(chunkBytes);
          for (const part of parts) out.bytes(Buffer.from(part.repeat(7), 'utf8'));
          out.end();
          let decoded = '';
          for (const chunk of out.take()) {
            assert.ok(chunk.byteLength <= chunkBytes);
            decoded += new TextDecoder('utf-8', { fatal: true }).decode(chunk);
          }
          assert.equal(
            decoded,
            Buffer.concat(parts.map((part) => Buffer.from(part.repeat(7), 'utf8'))).toString('utf8'),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
