/**
 * The final frame of an SSE stream (`SseStream#finish`): one `event: message` frame whose data is the message's
 * JSON text, and — with a stream store — stored whole when it fits the replay bound, or replaced in the store by a
 * JSON-RPC error when it does not or the store refuses it (the live frame is delivered in full either way), and
 * the event size limit that fails a call closed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { InMemoryStreamStore, silentLogger } from '../../../lambda/mcp/index.js';
import type { Logger } from '../../../lambda/mcp/index.js';
import { SseStream } from '../../../lambda/mcp/sse/index.js';

const messages: string[] = [];
const recordingLogger: Logger = {
  ...silentLogger,
  warn: (message: string) => void messages.push(message),
  error: (message: string) => void messages.push(message),
};

/** A final message of about `count` × 100 bytes, with non-ASCII text. */
function finalMessage(id: string | number, count: number): string {
  const records = Array.from({ length: count }, (_, i) => ({ i, name: `Zoë ${i} `.repeat(8) }));
  return JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: records }] } });
}

async function bodyText(stream: SseStream): Promise<string> {
  return new Response(stream.body).text();
}

async function storedStream(maxStoredEventBytes: number, logger = silentLogger) {
  const store = new InMemoryStreamStore();
  const streamId = await store.createStream('s');
  const sse = new SseStream({
    store: { store, sessionId: 's', streamId },
    keepaliveMs: 0,
    logger,
    onCancel: () => undefined,
    maxStoredEventBytes,
  });
  sse.prime();
  return { store, sse };
}

describe('SseStream final frame', () => {
  it('writes one event frame whose data line is the message, when there is no store', async () => {
    const message = finalMessage('c-1', 5_000);
    const sse = new SseStream({ keepaliveMs: 0, logger: silentLogger, onCancel: () => undefined });
    const [text] = await Promise.all([bodyText(sse), sse.finish(message)]);
    assert.equal(text, `event: message\ndata: ${message}\n\n`);
  });

  it('stores a final message that fits the replay bound whole, under the id of its live frame', async () => {
    const message = finalMessage('c-5', 1_000);
    const { store, sse } = await storedStream(1 << 20);
    const [text] = await Promise.all([bodyText(sse), sse.finish(message, 'c-5')]);
    const { events, closed } = await store.after('s', '1');
    assert.equal(closed, true);
    assert.deepEqual(events, [{ eventId: '2', data: message }]);
    assert.ok(text.endsWith(`id: 2\nevent: message\ndata: ${message}\n\n`));
  });

  it('delivers a final message over the replay bound live and stores a JSON-RPC error in its place', async () => {
    const message = finalMessage('c-6', 5_000);
    const { store, sse } = await storedStream(100_000, recordingLogger);
    messages.length = 0;
    const [text] = await Promise.all([bodyText(sse), sse.finish(message, 'c-6')]);
    assert.ok(text.endsWith(`id: 2\nevent: message\ndata: ${message}\n\n`));
    const { events } = await store.after('s', '1');
    assert.deepEqual(
      events.map((event) => [event.eventId, JSON.parse(event.data) as unknown]),
      [['2', { jsonrpc: '2.0', id: 'c-6', error: { code: -32603, message: 'Result too large to replay' } }]],
    );
    assert.deepEqual(messages, ['final message too large to store for replay']);
  });

  it('measures the replay bound in UTF-8 bytes, not characters', async () => {
    // 600 characters of 'é' are 1,200 bytes: over a 1,000-byte bound although the string is shorter.
    const message = JSON.stringify({ jsonrpc: '2.0', id: 9, result: { text: 'é'.repeat(600) } });
    assert.ok(message.length < 1_000);
    const { store, sse } = await storedStream(1_000);
    await Promise.all([bodyText(sse), sse.finish(message, 9)]);
    const { events } = await store.after('s', '1');
    assert.deepEqual(JSON.parse(events[0]?.data ?? 'null'), {
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32603, message: 'Result too large to replay' },
    });
  });
});

describe('SseStream final frame given as pieces', () => {
  it('writes the pieces as one event frame, in chunks, without a store', async () => {
    const message = finalMessage('c-7', 5_000);
    const pieces = message.match(/[\s\S]{1,997}/g) ?? [];
    const sse = new SseStream({ keepaliveMs: 0, logger: silentLogger, onCancel: () => undefined });
    const chunks: number[] = [];
    const reading = (async () => {
      let text = '';
      const decoder = new TextDecoder();
      const reader = sse.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        chunks.push(value.byteLength);
        text += decoder.decode(value, { stream: true });
      }
    })();
    await sse.finish(pieces, 'c-7');
    assert.equal(await reading, `event: message\ndata: ${message}\n\n`);
    assert.ok(chunks.length > 3, `${chunks.length} chunks`);
    assert.ok(Math.max(...chunks) < 200_000);
  });

  it('answers an error frame when the pieces fail before their first chunk', async () => {
    function* failing(): Generator<string> {
      yield '{"jsonrpc":"2.0","id":"c-8","result":';
      throw new TypeError('Do not know how to serialize a BigInt');
    }
    messages.length = 0;
    const sse = new SseStream({ keepaliveMs: 0, logger: recordingLogger, onCancel: () => undefined });
    const [text] = await Promise.all([bodyText(sse), sse.finish(failing(), 'c-8')]);
    const data = /^data: (.*)$/m.exec(text)?.[1] ?? '';
    assert.deepEqual(JSON.parse(data), {
      jsonrpc: '2.0',
      id: 'c-8',
      error: { code: -32603, message: 'Internal error' },
    });
    assert.deepEqual(messages, ['tool result could not be serialised']);
  });

  it('joins the pieces when a store keeps the message', async () => {
    const message = finalMessage('c-9', 100);
    const { store, sse } = await storedStream(1 << 20);
    const [text] = await Promise.all([
      bodyText(sse),
      sse.finish([message.slice(0, 50), message.slice(50)], 'c-9'),
    ]);
    const { events } = await store.after('s', '1');
    assert.deepEqual(events, [{ eventId: '2', data: message }]);
    assert.ok(text.endsWith(`data: ${message}\n\n`));
  });
});

describe('SseStream event size limit (MCP_STREAM_MAX_EVENT_BYTES)', () => {
  const tooLarge = (id: string | number, max: number) => ({
    jsonrpc: '2.0',
    id,
    error: { code: -32603, message: 'Stream event too large', data: { maxEventBytes: max } },
  });
  const dataOf = (text: string): unknown[] =>
    text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);

  it('replaces a final message over the limit with a -32603 "Stream event too large" error for the request', async () => {
    // Prepare
    const message = finalMessage('c-7', 100);
    const sse = new SseStream({
      keepaliveMs: 0,
      logger: recordingLogger,
      onCancel: () => undefined,
      maxEventBytes: 2_048,
    });
    messages.length = 0;
    // Act
    const [text] = await Promise.all([bodyText(sse), sse.finish(message, 'c-7')]);
    // Assess
    assert.deepEqual(dataOf(text), [tooLarge('c-7', 2_048)]);
    assert.deepEqual(messages, ['stream event over the event size limit; the call fails']);
  });

  it('fails the call closed after a notification over the limit: later notifications are dropped', async () => {
    // Prepare
    const note = (text: string) =>
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { text } });
    const sse = new SseStream({
      keepaliveMs: 0,
      logger: silentLogger,
      onCancel: () => undefined,
      maxEventBytes: 2_048,
    });
    // Act
    const body = bodyText(sse);
    sse.send(note('small'));
    sse.send(note('x'.repeat(3_000)));
    sse.send(note('small again'));
    await sse.finish(JSON.stringify({ jsonrpc: '2.0', id: 3, result: {} }), 3);
    // Assess
    assert.deepEqual(dataOf(await body), [JSON.parse(note('small')), tooLarge(3, 2_048)]);
  });

  it('replaces a final message given as pieces over the limit with the same error', async () => {
    const message = finalMessage('c-10', 100);
    const sse = new SseStream({
      keepaliveMs: 0,
      logger: silentLogger,
      onCancel: () => undefined,
      maxEventBytes: 2_048,
    });
    const [text] = await Promise.all([
      bodyText(sse),
      sse.finish(message.match(/[\s\S]{1,97}/g) ?? [], 'c-10'),
    ]);
    assert.deepEqual(dataOf(text), [tooLarge('c-10', 2_048)]);
  });

  it('keeps events at the limit whole, counting UTF-8 bytes', async () => {
    // Prepare: 1,000 'é' are 2,000 bytes of text, inside a 4,096-byte limit.
    const message = JSON.stringify({ jsonrpc: '2.0', id: 4, result: { text: 'é'.repeat(1_000) } });
    const sse = new SseStream({
      keepaliveMs: 0,
      logger: silentLogger,
      onCancel: () => undefined,
      maxEventBytes: 4_096,
    });
    // Act
    const [text] = await Promise.all([bodyText(sse), sse.finish(message, 4)]);
    // Assess
    assert.equal(text, `event: message\ndata: ${message}\n\n`);
  });

  it('stores an error in place of a final message the store refuses, and still delivers the message live', async () => {
    // Prepare: a store that refuses anything over 1,000 bytes, as a store with an item size limit would.
    const store = new InMemoryStreamStore();
    const append = store.append.bind(store);
    store.append = (session, stream, data) =>
      Buffer.byteLength(data) > 1_000
        ? Promise.reject(new Error('too large for the store'))
        : append(session, stream, data);
    const streamId = await store.createStream('s');
    const sse = new SseStream({
      store: { store, sessionId: 's', streamId },
      keepaliveMs: 0,
      logger: silentLogger,
      onCancel: () => undefined,
    });
    sse.prime();
    const message = finalMessage('c-8', 100);
    // Act
    const [text] = await Promise.all([bodyText(sse), sse.finish(message, 'c-8')]);
    // Assess
    assert.ok(text.endsWith(`id: 2\nevent: message\ndata: ${message}\n\n`));
    const { events } = await store.after('s', '1');
    assert.deepEqual(
      events.map((event) => [event.eventId, JSON.parse(event.data) as unknown]),
      [
        [
          '2',
          {
            jsonrpc: '2.0',
            id: 'c-8',
            error: { code: -32603, message: 'Result could not be stored for replay' },
          },
        ],
      ],
    );
  });
});
