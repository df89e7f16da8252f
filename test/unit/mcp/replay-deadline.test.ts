/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return -- SSE data is untyped wire JSON; the assertions check its shape */
/**
 * A GET replay (`Last-Event-ID`) of a stream that is still open ends before the invocation's deadline (minus the
 * reserve), as a Lambda response must, and the client continues with the last event id it got: across the
 * replays every event arrives exactly once, ending with the final message.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { inSession, initialize, makeServer, parseSse, post, rpc } from './helpers.js';

const EVENTS = 8;
const GAP_MS = 60;

/** A server whose `ticker` tool sends `EVENTS` progress notifications `GAP_MS` apart, then its result. */
function tickerServer() {
  // keepaliveMs 0: no keepalive comments, on the live stream as on a replay.
  const server = makeServer({ keepaliveMs: 0, replayPollMs: 10, deadlineReserveMs: 50 });
  server.registerStreamingTool({ name: 'ticker', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    for (let tick = 1; tick <= EVENTS; tick += 1) {
      await delay(GAP_MS);
      ctx.progress(tick, EVENTS, `tick ${tick}`);
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return server;
}

const replay = (session: string, lastEventId: string): Request =>
  new Request('http://localhost/mcp', {
    method: 'GET',
    headers: { accept: 'text/event-stream', ...inSession(session), 'last-event-id': lastEventId },
  });

describe('a GET replay bounded by the invocation deadline', () => {
  it('ends before the deadline while the stream is open, and the client resumes from the last id it got', async () => {
    // Prepare: the call runs on after its POST stream is dropped right after the priming event.
    const server = tickerServer();
    const session = await initialize(server);
    const live = await server.handle(
      post(
        rpc(7, 'tools/call', { name: 'ticker', arguments: {}, _meta: { progressToken: 'p' } }),
        inSession(session),
      ),
    );
    const reader = live.body!.getReader();
    const priming = parseSse(new TextDecoder().decode((await reader.read()).value));
    await reader.cancel();
    let lastEventId = priming[0]?.id;
    assert.ok(lastEventId, 'the priming event carries an id');

    // Act: replays whose invocations each have 400 ms left (350 ms after the reserve), less than the call needs.
    const received: { id: string; message: any }[] = [];
    const durations: number[] = [];
    let replays = 0;
    while (!received.some((event) => event.message.id === 7) && replays < 20) {
      replays += 1;
      const started = Date.now();
      const response = await server.handle(replay(session, lastEventId), { deadline: started + 400 });
      assert.equal(response.status, 200);
      const blocks = parseSse(await response.text()).filter((block) => block.id !== undefined);
      durations.push(Date.now() - started);
      for (const block of blocks) received.push({ id: block.id!, message: JSON.parse(block.data!) });
      lastEventId = blocks.at(-1)?.id ?? lastEventId;
    }
    await server.settled();

    // Assess: more than one replay was needed, each ended by its deadline, and nothing was lost or repeated.
    assert.ok(replays >= 2, `the first replay already reached the end (${replays} replay)`);
    for (const ms of durations) assert.ok(ms < 400, `a replay ran ${ms} ms, past its deadline`);
    const ticks = received.filter((event) => event.message.method === 'notifications/progress');
    assert.deepEqual(
      ticks.map((event) => event.message.params.message),
      Array.from({ length: EVENTS }, (_, index) => `tick ${index + 1}`),
    );
    assert.equal(new Set(received.map((event) => event.id)).size, received.length, 'an event id repeated');
    assert.deepEqual(received.at(-1)?.message.result.content, [{ type: 'text', text: 'done' }]);
    assert.equal(received.length, EVENTS + 1);
  });
});
