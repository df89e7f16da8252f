/**
 * The final frame of an SSE stream written in chunks (`SseStream#finish` with a `ChunkedJson`): the same bytes
 * as the one-string frame, written with backpressure, never interleaved with a keepalive, and — with a stream
 * store — stored whole when it fits the replay bound, or replaced in the store by a JSON-RPC error when it does not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  ChunkedJson,
  InMemoryStreamStore,
  LazyJson,
  silentLogger,
  writeJson,
} from '../../../lambda/mcp/index.js';
import type { ChunkWriter, JsonObject, JsonValue, Logger } from '../../../lambda/mcp/index.js';
import { encodeEventFrame, SseStream } from '../../../lambda/mcp/sse/index.js';

/** A lazy text of `count` records, so a message can be made as large as a test needs. */
class Records extends LazyJson {
  constructor(readonly count: number) {
    super();
  }
  value(): JsonValue {
    return Array.from({ length: this.count }, (_, i) => ({ i, name: `Zoë ${i} `.repeat(8) }));
  }
  *write(out: ChunkWriter): Generator<void, void, undefined> {
    yield* writeJson(this.value(), out);
  }
}

/** A chunked response with id `id` whose result holds `count` records; counts the chunks written. */
class CountedMessage extends ChunkedJson {
  written = 0;
  constructor(id: string, count: number) {
    const result = { content: [{ type: 'text', text: new Records(count) }] };
    super({ jsonrpc: '2.0', id, result } as unknown as JsonObject);
  }
  override next(): IteratorResult<Uint8Array, void> {
    const step = super.next();
    if (step.done !== true) this.written++;
    return step;
  }
}

const messages: string[] = [];
const recordingLogger: Logger = {
  ...silentLogger,
  warn: (message: string) => void messages.push(message),
  error: (message: string) => void messages.push(message),
};

async function bodyText(stream: SseStream): Promise<string> {
  return new Response(stream.body).text();
}

describe('SseStream final frame in chunks', () => {
  it('writes the same bytes as the one-string frame when there is no store', async () => {
    const message = new CountedMessage('c-1', 5_000);
    const expected = new TextDecoder().decode(encodeEventFrame(message.text(), undefined, 'message'));
    const sse = new SseStream({ keepaliveMs: 0, logger: silentLogger, onCancel: () => undefined });
    const [text] = await Promise.all([bodyText(sse), sse.finish(message)]);
    assert.ok(message.written > 3, 'the message spans several chunks');
    assert.equal(text, expected);
  });

  it('writes a chunk only when the reader has room for it', async () => {
    const message = new CountedMessage('c-2', 20_000);
    const sse = new SseStream({ keepaliveMs: 0, logger: silentLogger, onCancel: () => undefined });
    const finished = sse.finish(message);
    const reader = sse.body.getReader();
    let read = 0;
    let furthestAhead = 0;
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      furthestAhead = Math.max(furthestAhead, message.written - read);
      const { done, value } = await reader.read();
      if (done) break;
      if (value.byteLength > 1_000) read++;
    }
    await finished;
    assert.ok(message.written > 10);
    // The 64 KiB queue holds one 64 KiB chunk, plus the one being handed over.
    assert.ok(furthestAhead <= 2, `the writer ran ${furthestAhead} chunks ahead of the reader`);
  });

  it('stops writing when the reader cancels in the middle of the frame', async () => {
    const message = new CountedMessage('c-3', 20_000);
    let cancelled = 0;
    const sse = new SseStream({ keepaliveMs: 0, logger: silentLogger, onCancel: () => cancelled++ });
    const finished = sse.finish(message);
    const reader = sse.body.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    await finished;
    assert.equal(cancelled, 1);
    assert.ok(message.written < 10, `${message.written} chunks written after the cancel`);
  });

  it('never puts a keepalive comment inside the frame while waiting for a slow reader', async () => {
    const message = new CountedMessage('c-4', 3_000);
    const sse = new SseStream({ keepaliveMs: 1, logger: silentLogger, onCancel: () => undefined });
    const finished = sse.finish(message);
    const reader = sse.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      // Long enough for the 1 ms keepalive timer to fire while the writer waits.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await finished;
    const frame = text.slice(text.indexOf('event: message'));
    assert.equal(frame, new TextDecoder().decode(encodeEventFrame(message.text(), undefined, 'message')));
  });

  it('stores a final message that fits the replay bound whole, under the id of its live frame', async () => {
    const store = new InMemoryStreamStore();
    const streamId = await store.createStream('s');
    const message = new CountedMessage('c-5', 1_000);
    const sse = new SseStream({
      store: { store, sessionId: 's', streamId },
      keepaliveMs: 0,
      logger: silentLogger,
      onCancel: () => undefined,
      maxStoredEventBytes: 1 << 20,
    });
    sse.prime();
    const [text] = await Promise.all([bodyText(sse), sse.finish(message)]);
    const { events, closed } = await store.after('s', '1');
    assert.equal(closed, true);
    assert.deepEqual(events, [{ eventId: '2', data: message.text() }]);
    assert.ok(text.endsWith(new TextDecoder().decode(encodeEventFrame(message.text(), '2', 'message'))));
  });

  it('delivers a final message over the replay bound live and stores a JSON-RPC error in its place', async () => {
    const store = new InMemoryStreamStore();
    const streamId = await store.createStream('s');
    const message = new CountedMessage('c-6', 5_000);
    const sse = new SseStream({
      store: { store, sessionId: 's', streamId },
      keepaliveMs: 0,
      logger: recordingLogger,
      onCancel: () => undefined,
      maxStoredEventBytes: 100_000,
    });
    sse.prime();
    messages.length = 0;
    const [text] = await Promise.all([bodyText(sse), sse.finish(message)]);
    assert.ok(text.endsWith(new TextDecoder().decode(encodeEventFrame(message.text(), '2', 'message'))));
    const { events } = await store.after('s', '1');
    assert.equal(events.length, 1);
    assert.equal(events[0]?.eventId, '2');
    assert.deepEqual(JSON.parse(events[0]?.data ?? ''), {
      jsonrpc: '2.0',
      id: 'c-6',
      error: { code: -32603, message: 'Result too large to replay' },
    });
    assert.deepEqual(messages, ['final message too large to store for replay']);
  });

  it('applies the same replay bound to a final message sent as one string', async () => {
    const store = new InMemoryStreamStore();
    const streamId = await store.createStream('s');
    const sse = new SseStream({
      store: { store, sessionId: 's', streamId },
      keepaliveMs: 0,
      logger: silentLogger,
      onCancel: () => undefined,
      maxStoredEventBytes: 1_000,
    });
    sse.prime();
    const big = JSON.stringify({ jsonrpc: '2.0', id: 9, result: { text: 'x'.repeat(5_000) } });
    const [text] = await Promise.all([bodyText(sse), sse.finish(big, 9)]);
    assert.ok(text.endsWith(new TextDecoder().decode(encodeEventFrame(big, '2', 'message'))));
    const { events } = await store.after('s', '1');
    assert.deepEqual(
      events.map((event) => [event.eventId, JSON.parse(event.data) as unknown]),
      [['2', { jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Result too large to replay' } }]],
    );
  });

  it('ends the stream with the frame unfinished when the message fails after its first bytes', async () => {
    class Failing extends LazyJson {
      value(): JsonValue {
        return null;
      }
      *write(out: ChunkWriter): Generator<void, void, undefined> {
        out.text('"');
        for (let i = 0; i < 50; i++) {
          out.text('y'.repeat(10_000));
          if (out.pending) yield;
        }
        throw new Error('source went away');
      }
    }
    const message = new ChunkedJson({
      jsonrpc: '2.0',
      id: 1,
      result: { lazy: new Failing() },
    } as unknown as JsonObject);
    const sse = new SseStream({ keepaliveMs: 0, logger: recordingLogger, onCancel: () => undefined });
    messages.length = 0;
    const [text] = await Promise.all([bodyText(sse), sse.finish(message)]);
    assert.ok(text.startsWith('event: message\ndata: {"jsonrpc"'));
    // No blank line ends the event, so SSE parsers discard it: the client sees no final response.
    assert.equal(text.includes('\n\n'), false);
    assert.deepEqual(messages, ['final message failed after its first bytes']);
  });

  it('sends an ordinary error frame when the message fails while read ahead for the store', async () => {
    class FailsLate extends LazyJson {
      value(): JsonValue {
        return null;
      }
      *write(out: ChunkWriter): Generator<void, void, undefined> {
        out.text('"');
        for (let i = 0; i < 10; i++) {
          out.text('z'.repeat(10_000));
          if (out.pending) yield;
        }
        throw new Error('provider exception text that must not reach the client');
      }
    }
    const store = new InMemoryStreamStore();
    const streamId = await store.createStream('s');
    const message = new ChunkedJson({
      jsonrpc: '2.0',
      id: 'late',
      result: { lazy: new FailsLate() },
    } as unknown as JsonObject);
    const sse = new SseStream({
      store: { store, sessionId: 's', streamId },
      keepaliveMs: 0,
      logger: recordingLogger,
      onCancel: () => undefined,
    });
    sse.prime();
    messages.length = 0;
    const [text] = await Promise.all([bodyText(sse), sse.finish(message)]);
    const failure = JSON.stringify({
      jsonrpc: '2.0',
      id: 'late',
      error: { code: -32603, message: 'Internal error' },
    });
    assert.ok(text.endsWith(new TextDecoder().decode(encodeEventFrame(failure, '2', 'message'))));
    assert.equal(text.includes('provider exception'), false);
    assert.deepEqual((await store.after('s', '1')).events, [{ eventId: '2', data: failure }]);
    assert.deepEqual(messages, ['final message failed to serialise']);
  });
});
