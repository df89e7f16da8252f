/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * Disconnect semantics of session-ful POST streams (MCP 2025-11-25 transports: a dropped connection is not
 * a cancellation on a resumable stream) and the SEP-1699 `retry:` field on the priming event.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import type { McpServer, StreamingToolOptions } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, parseSse, post, rpc } from './helpers.js';

interface Probe {
  aborted: boolean;
  release: () => void;
}

/** A server whose `slow` tool sends one progress frame, waits to be released, then sends another. */
function slowServer(
  options: StreamingToolOptions = {},
  overrides: Parameters<typeof makeServer>[0] = {},
): { server: McpServer; probe: Probe } {
  const server = makeServer({ keepaliveMs: 0, ...overrides });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const probe: Probe = { aborted: false, release: () => release() };
  server.registerStreamingTool(
    { name: 'slow', inputSchema: { type: 'object' } },
    async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => (probe.aborted = true));
      ctx.progress(1, 2, 'first');
      await gate;
      ctx.progress(2, 2, 'second');
      return { content: [{ type: 'text', text: 'finished' }] };
    },
    options,
  );
  return { server, probe };
}

const call = (session: string): Request =>
  post(
    rpc(1, 'tools/call', { name: 'slow', arguments: {}, _meta: { progressToken: 't' } }),
    inSession(session),
  );

/** Reads until the first progress frame, then drops the connection; returns what was read. */
async function readFirstProgressThenDisconnect(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('"first"')) {
    const chunk = await reader.read();
    assert.equal(chunk.done, false, 'the stream ended before the first progress frame');
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe('client disconnect on a session-ful stream', () => {
  it('keeps the tool running and replays its later events on a GET with Last-Event-ID', async () => {
    // Prepare
    const { server, probe } = slowServer();
    const session = await initialize(server);
    const seen = parseSse(await readFirstProgressThenDisconnect(await server.handle(call(session))));
    const lastId = seen.filter((block) => block.id !== undefined).at(-1)?.id;
    assert.ok(lastId);
    // Act
    probe.release();
    await server.settled();
    const replay = await server.handle(
      new Request('http://localhost/mcp', {
        method: 'GET',
        headers: { accept: 'text/event-stream', ...inSession(session), 'last-event-id': lastId },
      }),
    );
    const replayed = parseSse(await replay.text()).map((block) => JSON.parse(block.data!));
    // Assess
    assert.equal(probe.aborted, false, 'the disconnect cancelled the tool');
    assert.equal(replay.status, 200);
    assert.equal(replayed.length, 2);
    assert.equal(replayed[0].params.message, 'second');
    assert.deepEqual(replayed[1].result.content, [{ type: 'text', text: 'finished' }]);
  });

  it('ignores the adapter’s disconnect signal for a resumable stream', async () => {
    const { server, probe } = slowServer();
    const session = await initialize(server);
    const adapter = new AbortController();
    const res = await server.handle(call(session), { signal: adapter.signal });
    adapter.abort(new Error('client went away'));
    await res.body?.cancel();
    probe.release();
    await server.settled();
    assert.equal(probe.aborted, false);
  });

  it('leaves no listener on the invocation’s signal once a resumable stream’s call is over', async () => {
    // Prepare: twelve calls on one long-lived signal (Node warns from 11 listeners on one signal).
    const { server, probe } = slowServer();
    const session = await initialize(server);
    const invocation = new AbortController();
    // Act
    for (let i = 0; i < 12; i += 1) {
      const res = await server.handle(call(session), { signal: invocation.signal });
      probe.release();
      await res.text();
    }
    await server.settled();
    // Assess
    assert.equal(getEventListeners(invocation.signal, 'abort').length, 0);
  });

  it('aborts the tool on disconnect when it registered cancelOnDisconnect', async () => {
    const { server, probe } = slowServer({ cancelOnDisconnect: true });
    const session = await initialize(server);
    await readFirstProgressThenDisconnect(await server.handle(call(session)));
    await server.settled();
    assert.equal(probe.aborted, true);
    probe.release();
  });
});

describe('the retry field of the priming event (SEP-1699)', () => {
  async function primingBlock(server: McpServer, probe: Probe): Promise<Record<string, string>> {
    const session = await initialize(server);
    const res = await server.handle(call(session));
    probe.release();
    const first = (await res.text()).split('\n\n')[0] ?? '';
    return Object.fromEntries(
      first
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
    );
  }

  it('sends retry with the priming event of a resumable stream, 1000 ms by default', async () => {
    const { server, probe } = slowServer();
    assert.deepEqual(await primingBlock(server, probe), { id: '1', retry: '1000', data: '' });
  });

  it('sends the configured sseRetryMs', async () => {
    const { server, probe } = slowServer({}, { sseRetryMs: 2500 });
    assert.equal((await primingBlock(server, probe)).retry, '2500');
  });

  it('neither primes nor persists a stream that cancels on disconnect, since nothing could resume it', async () => {
    const { server, probe } = slowServer({ cancelOnDisconnect: true });
    const session = await initialize(server);
    const res = await server.handle(call(session));
    probe.release();
    const blocks = parseSse(await res.text());
    assert.equal(blocks.length, 3, 'two progress frames and the result, nothing else');
    assert.deepEqual(
      blocks.map((block) => block.id),
      [undefined, undefined, undefined],
    );
    assert.ok(blocks.every((block) => block.data !== ''));
  });
});

describe('closing the stream mid-call (SEP-1699 polling)', () => {
  function closingServer(options: StreamingToolOptions = {}): { server: McpServer; release: () => void } {
    const server = makeServer({ keepaliveMs: 0 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.registerStreamingTool(
      { name: 'poller', inputSchema: { type: 'object' } },
      async (_args, ctx) => {
        ctx.closeStream?.();
        await gate;
        ctx.progress(1, 1, 'after close');
        return { content: [{ type: 'text', text: 'done later' }] };
      },
      options,
    );
    return { server, release };
  }

  const pollerCall = (session: string): Request =>
    post(
      rpc(1, 'tools/call', { name: 'poller', arguments: {}, _meta: { progressToken: 'p' } }),
      inSession(session),
    );

  it('ends the POST body after the priming event and delivers the rest through the GET replay', async () => {
    // Prepare
    const { server, release } = closingServer();
    const session = await initialize(server);
    // Act: the body ends while the tool is still blocked, so it can hold nothing but the priming event.
    const live = parseSse(await (await server.handle(pollerCall(session))).text());
    release();
    await server.settled();
    const replay = await server.handle(
      new Request('http://localhost/mcp', {
        method: 'GET',
        headers: { accept: 'text/event-stream', ...inSession(session), 'last-event-id': live[0]?.id ?? '' },
      }),
    );
    const replayed = parseSse(await replay.text()).map((block) => JSON.parse(block.data!));
    // Assess
    assert.equal(live.length, 1);
    assert.equal(live[0]?.data, '');
    assert.deepEqual(
      replayed.map((message) => message.method ?? message.result?.content?.[0]?.text),
      ['notifications/progress', 'done later'],
    );
  });

  it('keeps the stream open when the tool cancels on disconnect, since nobody could resume it', async () => {
    const { server, release } = closingServer({ cancelOnDisconnect: true });
    const session = await initialize(server);
    const res = await server.handle(pollerCall(session));
    release();
    const live = parseSse(await res.text());
    assert.equal(JSON.parse(live.at(-1)!.data!).result.content[0].text, 'done later');
  });
});
