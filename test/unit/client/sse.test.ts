/**
 * Incremental SSE decoding: the events must not depend on where the network splits the bytes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SseDecoder, readSseEvents, type SseEvent } from '../../../client/index.js';
import { splitAt, streamOf } from './contract-example.js';

const encoder = new TextEncoder();

/** Decodes the chunks and returns the events plus counters. */
function decode(chunks: readonly Uint8Array[]): { events: SseEvent[]; comments: number; empty: number } {
  const events: SseEvent[] = [];
  const decoder = new SseDecoder({ onEvent: (e) => events.push(e) });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return { events, comments: decoder.diagnostics.comments, empty: decoder.diagnostics.emptyEvents };
}

// Priming event, comment, a multi-line data event with multi-byte UTF-8 (2-, 3- and 4-byte sequences),
// a keepalive, and a plain event.
const SAMPLE =
  'id: prime\ndata:\n\n' +
  ': bos/source-results/v1\n\n' +
  'event: message\ndata: {"name":"Zoë 日本",\ndata: "emoji":"👩‍💻"}\n\n' +
  ': keepalive\n' +
  'event: message\ndata: {"n":2}\n\n';
const EXPECTED: SseEvent[] = [
  { event: 'message', data: '{"name":"Zoë 日本",\n"emoji":"👩‍💻"}' },
  { event: 'message', data: '{"n":2}' },
];

describe('SseDecoder', () => {
  it('decodes the sample in one chunk into two events, ignoring the priming event and comments', () => {
    const result = decode([encoder.encode(SAMPLE)]);
    assert.deepEqual(result.events, EXPECTED);
    assert.equal(result.comments, 2);
    assert.equal(result.empty, 1);
  });

  it('produces identical events for every split into two chunks, including inside UTF-8 sequences and \\n\\n', () => {
    const bytes = encoder.encode(SAMPLE);
    for (let i = 1; i < bytes.length; i += 1)
      assert.deepEqual(decode(splitAt(bytes, [i])).events, EXPECTED, `split at byte ${i}`);
  });

  it('produces identical events for every split into three chunks', () => {
    const bytes = encoder.encode(SAMPLE);
    for (let i = 1; i < bytes.length; i += 1)
      for (let j = i; j < bytes.length; j += 1)
        assert.deepEqual(decode(splitAt(bytes, [i, j])).events, EXPECTED, `split at ${i}, ${j}`);
  });

  it('produces identical events when fed one byte at a time', () => {
    const bytes = encoder.encode(SAMPLE);
    const offsets = Array.from({ length: bytes.length - 1 }, (_, k) => k + 1);
    assert.deepEqual(decode(splitAt(bytes, offsets)).events, EXPECTED);
  });

  it('treats CRLF and CR line endings like LF, even when a CRLF is split across chunks', () => {
    const crlf = encoder.encode(SAMPLE.replaceAll('\n', '\r\n'));
    const cr = encoder.encode(SAMPLE.replaceAll('\n', '\r'));
    for (let i = 1; i < crlf.length; i += 1)
      assert.deepEqual(decode(splitAt(crlf, [i])).events, EXPECTED, `CRLF split at ${i}`);
    assert.deepEqual(decode([cr]).events, EXPECTED);
  });

  it('drops an event whose terminating blank line never arrived (EOF mid-frame)', () => {
    const result = decode([
      encoder.encode('event: message\ndata: {"n":1}\n\nevent: message\ndata: {"n":2}\n'),
    ]);
    assert.deepEqual(result.events, [{ event: 'message', data: '{"n":1}' }]);
  });

  it('keeps the id and the default event name when no event field is sent', () => {
    assert.deepEqual(decode([encoder.encode('id: 7\ndata: x\n\n')]).events, [
      { event: 'message', data: 'x', id: '7' },
    ]);
  });
});

describe('readSseEvents', () => {
  it('yields the events of a byte stream in order and returns the counters', async () => {
    const bytes = encoder.encode(SAMPLE);
    const iterator = readSseEvents(streamOf(splitAt(bytes, [5, 40, 41, 90])));
    const events: SseEvent[] = [];
    let step = await iterator.next();
    while (step.done !== true) {
      events.push(step.value);
      step = await iterator.next();
    }
    assert.deepEqual(events, EXPECTED);
    assert.equal(step.value.comments, 2);
    assert.equal(step.value.bytes, bytes.length);
  });

  it('throws the read failure after yielding the events decoded before it', async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encoder.encode('data: first\n\ndata: cut'));
        } else controller.error(new Error('socket hang up'));
      },
    });
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const event of readSseEvents(stream)) seen.push(event.data);
    }, /socket hang up/);
    assert.deepEqual(seen, ['first']);
  });
});

describe('shared AppTheory SSE fixture', () => {
  const fixture = join(
    resolve(dirname(fileURLToPath(import.meta.url)), '../../..'),
    '../shared/fixtures/apptheory/api-gateway-rest-sse/sse-single-event.json',
  );

  it('decodes the body of m3.sse.single_event into its one message event', (t) => {
    if (!existsSync(fixture)) {
      t.skip(`fixture folder absent: ${fixture}`);
      return;
    }
    const parsed = JSON.parse(readFileSync(fixture, 'utf8')) as {
      expect: { response: { body: { value: string } } };
    };
    const bytes = encoder.encode(parsed.expect.response.body.value);
    for (let i = 1; i < bytes.length; i += 1)
      assert.deepEqual(decode(splitAt(bytes, [i])).events, [
        { event: 'message', data: '{"ok":true}', id: '1' },
      ]);
  });
});
