/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * Disconnect semantics of session-ful POST streams (MCP 2025-11-25 transports: a dropped connection is not
 * a cancellation on a resumable stream) and the SEP-1699 `retry:` field on the priming event.
 */
import assert from 'node:assert/strict';
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

  it('sends no retry on a stream that cancels on disconnect, since reconnecting cannot resume it', async () => {
    const { server, probe } = slowServer({ cancelOnDisconnect: true });
    assert.deepEqual(await primingBlock(server, probe), { id: '1', data: '' });
  });
});
