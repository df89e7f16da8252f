/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * Streaming tools over SSE: framing, progress and log notifications, replay, the GET listener,
 * in-stream failures, cancellation, server-to-client requests, keepalives and backpressure.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import type { McpServer, StreamingToolContext } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, parseSse, post, readJson, rpc } from './helpers.js';

function streamingServer(overrides: Parameters<typeof makeServer>[0] = {}): McpServer {
  const server = makeServer({ keepaliveMs: 0, ...overrides });
  server.registerStreamingTool({ name: 'streamer', inputSchema: { type: 'object' } }, (args, ctx) => {
    ctx.progress(1, 2, 'half');
    ctx.progress(2, 2, 'done');
    return Promise.resolve({
      content: [{ type: 'text', text: typeof args.message === 'string' ? args.message : 'ok' }],
    });
  });
  return server;
}

function get(headers: Record<string, string>): Request {
  return new Request('http://localhost/mcp', {
    method: 'GET',
    headers: { accept: 'text/event-stream', ...headers },
  });
}

/** Reads a streaming body until `until` holds for the text so far (or the body ends). */
async function readUntil(
  res: Response,
  until: (text: string) => boolean,
): Promise<{ text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return { text, reader };
}

describe('streaming tools over SSE', () => {
  it('sends SSE headers, a priming event, progress frames and the final response, each with its own id', async () => {
    const server = streamingServer();
    const session = await initialize(server);
    const res = await server.handle(
      post(
        rpc('s1', 'tools/call', {
          name: 'streamer',
          arguments: { message: 'fin' },
          _meta: { progressToken: 'pt-1' },
        }),
        inSession(session),
      ),
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    assert.equal(res.headers.get('mcp-session-id'), session);

    const text = await res.text();
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    parser.feed(text);
    const blocks = parseSse(text);
    // SEP-1699: the priming event tells the client how long to wait before resuming.
    assert.deepEqual(blocks[0], { id: '1', retry: '1000', data: '' });
    assert.deepEqual(
      events.map((e) => [e.id, e.event, e.data === '']),
      [
        ['1', undefined, true],
        ['2', 'message', false],
        ['3', 'message', false],
        ['4', 'message', false],
      ],
    );
    const messages = events.slice(1).map((e) => JSON.parse(e.data));
    assert.deepEqual(messages[0], {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { message: 'half', progress: 1, progressToken: 'pt-1', total: 2 },
    });
    assert.equal(messages[1].params.progress, 2);
    assert.deepEqual(messages[2], {
      jsonrpc: '2.0',
      id: 's1',
      result: { content: [{ type: 'text', text: 'fin' }] },
    });
  });

  it('accepts an integer progress token and sends no progress without one', async () => {
    const server = streamingServer();
    const session = await initialize(server);
    const withInt = await server.handle(
      post(
        rpc(2, 'tools/call', { name: 'streamer', arguments: {}, _meta: { progressToken: 7 } }),
        inSession(session),
      ),
    );
    const intFrames = parseSse(await withInt.text()).filter((b) => b.data);
    assert.equal(JSON.parse(intFrames[0]!.data!).params.progressToken, 7);
    const without = await server.handle(
      post(rpc(3, 'tools/call', { name: 'streamer', arguments: {} }), inSession(session)),
    );
    const frames = parseSse(await without.text()).filter((b) => b.data);
    assert.equal(frames.length, 1);
    assert.equal(JSON.parse(frames[0]!.data!).id, 3);
  });

  it('filters notifications/message by the level the session set', async () => {
    const levels: string[] = [];
    const server = makeServer({
      keepaliveMs: 0,
      loggingLevelHook: (level) => Promise.resolve(void levels.push(level)),
    });
    server.registerStreamingTool({ name: 'logger', inputSchema: { type: 'object' } }, (_args, ctx) => {
      ctx.log('info', 'quiet');
      ctx.log('error', { detail: 'loud' }, 'db');
      return Promise.resolve({ content: [] });
    });
    const session = await initialize(server);
    const set = await readJson(
      await server.handle(post(rpc(1, 'logging/setLevel', { level: 'warning' }), inSession(session))),
    );
    assert.deepEqual(set.body.result, {});
    assert.deepEqual(levels, ['warning']);
    const res = await server.handle(
      post(rpc(2, 'tools/call', { name: 'logger', arguments: {} }), inSession(session)),
    );
    const logs = parseSse(await res.text())
      .filter((b) => b.data)
      .map((b) => JSON.parse(b.data!))
      .filter((m) => m.method === 'notifications/message');
    assert.deepEqual(logs, [
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { data: { detail: 'loud' }, level: 'error', logger: 'db' },
      },
    ]);
  });

  it('writes the leading comment after the priming event and answers JSON when shouldStream declines', async () => {
    const server = makeServer({ keepaliveMs: 0 });
    server.registerStreamingTool(
      { name: 'opt', inputSchema: { type: 'object' } },
      (args, ctx) => {
        ctx.progress(1);
        ctx.comment('ignored when buffered');
        return Promise.resolve({
          content: [{ type: 'text', text: typeof args.mode === 'string' ? args.mode : '' }],
        });
      },
      { shouldStream: (ctx) => ctx.meta.stream === true, leadingComment: 'bos/source-results/v1' },
    );
    const session = await initialize(server);
    const streamed = await server.handle(
      post(
        rpc(1, 'tools/call', { name: 'opt', arguments: { mode: 'sse' }, _meta: { stream: true } }),
        inSession(session),
      ),
    );
    const blocks = parseSse(await streamed.text());
    assert.deepEqual(blocks.slice(0, 2), [
      { id: '1', retry: '1000', data: '' },
      { comment: 'bos/source-results/v1' },
    ]);
    const buffered = await server.handle(
      post(rpc(2, 'tools/call', { name: 'opt', arguments: { mode: 'json' } }), inSession(session)),
    );
    assert.equal(buffered.headers.get('content-type'), 'application/json');
    assert.deepEqual((await readJson(buffered)).body.result, { content: [{ type: 'text', text: 'json' }] });
  });

  it('reports a failure after the first byte as a sanitized error frame and ends the stream', async () => {
    const server = makeServer({ keepaliveMs: 0 });
    server.registerStreamingTool({ name: 'boom', inputSchema: { type: 'object' } }, (_args, ctx) => {
      ctx.progress(1);
      return Promise.reject(new Error('connection string postgres://admin:pw@db'));
    });
    const session = await initialize(server);
    const res = await server.handle(
      post(
        rpc(9, 'tools/call', { name: 'boom', arguments: {}, _meta: { progressToken: 'p' } }),
        inSession(session),
      ),
    );
    const text = await res.text();
    const last = parseSse(text).at(-1)!;
    assert.deepEqual(JSON.parse(last.data!), {
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32603, message: 'Internal error' },
    });
    assert.doesNotMatch(text, /postgres|admin/);
  });

  it('aborts the tool on notifications/cancelled and ends the stream with a cancellation error', async () => {
    const server = makeServer({ keepaliveMs: 0 });
    let sawAbort = false;
    server.registerStreamingTool({ name: 'wait', inputSchema: { type: 'object' } }, (_args, ctx) => {
      ctx.progress(0);
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          sawAbort = true;
          reject(ctx.signal.reason as Error);
        });
      });
    });
    const session = await initialize(server);
    const res = await server.handle(
      post(
        rpc('long', 'tools/call', { name: 'wait', arguments: {}, _meta: { progressToken: 1 } }),
        inSession(session),
      ),
    );
    const { reader, text: head } = await readUntil(res, (t) => t.includes('notifications/progress'));
    const cancel = await server.handle(
      post(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long' } },
        inSession(session),
      ),
    );
    assert.equal(cancel.status, 202);
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    assert.ok(sawAbort);
    const last = parseSse(head + rest).at(-1)!;
    assert.deepEqual(JSON.parse(last.data!).error, { code: -32800, message: 'Request cancelled' });
  });

  it('routes a POSTed client response back to the tool that asked on its stream', async () => {
    const server = makeServer({ keepaliveMs: 0 });
    server.registerStreamingTool(
      { name: 'ask', inputSchema: { type: 'object' } },
      async (_args, ctx: StreamingToolContext) => {
        const answer = await ctx.request('elicitation/create', {
          message: 'Confirm?',
          requestedSchema: { type: 'object' },
        });
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      },
    );
    const session = await initialize(server);
    const res = await server.handle(
      post(rpc(1, 'tools/call', { name: 'ask', arguments: {} }), inSession(session)),
    );
    const { reader, text: head } = await readUntil(res, (t) => t.includes('elicitation/create'));
    const asked = JSON.parse(parseSse(head).find((b) => b.data?.includes('elicitation'))!.data!);
    assert.equal(asked.method, 'elicitation/create');
    const reply = await server.handle(
      post({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept' } }, inSession(session)),
    );
    assert.equal(reply.status, 202);
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    const final = JSON.parse(parseSse(rest).at(-1)!.data!);
    assert.deepEqual(final.result.content[0].text, '{"action":"accept"}');
  });

  it('sends a keepalive comment while the tool is idle', async () => {
    const server = makeServer({ keepaliveMs: 10 });
    server.registerStreamingTool({ name: 'idle', inputSchema: { type: 'object' } }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      return { content: [] };
    });
    const session = await initialize(server);
    const res = await server.handle(
      post(rpc(1, 'tools/call', { name: 'idle', arguments: {} }), inSession(session)),
    );
    assert.ok(parseSse(await res.text()).some((b) => b.comment === 'keepalive'));
  });

  it('holds a producer at ready() until the consumer reads, and delivers every frame', async () => {
    const server = makeServer({ keepaliveMs: 0 });
    let sent = 0;
    const payload = 'x'.repeat(4096);
    server.registerStreamingTool({ name: 'flood', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      for (let i = 0; i < 200; i++) {
        await ctx.ready?.();
        ctx.notify({ jsonrpc: '2.0', method: 'notifications/flood', params: { i, payload } });
        sent++;
      }
      return { content: [] };
    });
    const session = await initialize(server);
    const res = await server.handle(
      post(rpc(1, 'tools/call', { name: 'flood', arguments: {} }), inSession(session)),
    );
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(sent < 200, `producer ran ahead to ${sent} frames with nobody reading`);
    const frames = parseSse(await res.text()).filter((b) => b.data?.includes('notifications/flood'));
    assert.equal(frames.length, 200);
    await server.settled();
  });

  it('ends the stream with a timeout error when the invocation deadline nears', async () => {
    const server = makeServer({ keepaliveMs: 0, deadlineReserveMs: 0 });
    server.registerStreamingTool(
      { name: 'slow', inputSchema: { type: 'object' } },
      () => new Promise(() => undefined),
    );
    const session = await initialize(server);
    const res = await server.handle(
      post(rpc(1, 'tools/call', { name: 'slow', arguments: {} }), inSession(session)),
      {
        deadline: Date.now() + 30,
      },
    );
    const last = parseSse(await res.text()).at(-1)!;
    assert.deepEqual(JSON.parse(last.data!).error, { code: -32001, message: 'Request timed out' });
  });
});

describe('GET on a session', () => {
  it('replays only the events after Last-Event-ID on that event’s stream', async () => {
    const server = streamingServer();
    const session = await initialize(server);
    const first = await server.handle(
      post(
        rpc('a', 'tools/call', { name: 'streamer', arguments: {}, _meta: { progressToken: 'a' } }),
        inSession(session),
      ),
    );
    const firstIds = parseSse(await first.text()).map((b) => b.id);
    const second = await server.handle(
      post(rpc('b', 'tools/call', { name: 'streamer', arguments: {} }), inSession(session)),
    );
    const secondIds = parseSse(await second.text()).map((b) => b.id);
    assert.deepEqual(firstIds, ['1', '2', '3', '4']);
    assert.deepEqual(secondIds, ['5', '6']);

    const replay = await server.handle(get({ ...inSession(session), 'last-event-id': '2' }));
    assert.equal(replay.status, 200);
    const blocks = parseSse(await replay.text());
    assert.deepEqual(
      blocks.map((b) => b.id),
      ['3', '4'],
    );
    assert.equal(JSON.parse(blocks[1]!.data!).id, 'a');
  });

  it('answers 404 for a Last-Event-ID of another session', async () => {
    const server = streamingServer();
    const owner = await initialize(server);
    const other = await initialize(server);
    await (
      await server.handle(post(rpc(1, 'tools/call', { name: 'streamer', arguments: {} }), inSession(owner)))
    ).text();
    const res = await server.handle(get({ ...inSession(other), 'last-event-id': '1' }));
    assert.equal(res.status, 404);
    assert.deepEqual((await readJson(res)).body, { error: 'stream not found' });
  });

  it('sends one keepalive comment and ends without Last-Event-ID, and needs an event-stream Accept', async () => {
    const server = streamingServer();
    const session = await initialize(server);
    const res = await server.handle(get(inSession(session)));
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.equal(await res.text(), ': keepalive\n\n');
    const refused = await server.handle(get({ ...inSession(session), accept: 'application/json' }));
    assert.equal(refused.status, 400);
  });
});
