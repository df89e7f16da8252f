/**
 * `sessionIndependentPreflight`: a session-ful streamed call starts its `beforeStream` hook beside the
 * session read instead of after it, and still answers exactly as before: the session's verdict first, then
 * the hook's refusal as JSON, else the stream with the hook's result as `ctx.prepared`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemorySessionStore, InvalidParamsError } from '../../../lambda/mcp/index.js';
import type { McpServer, SessionRecord, StreamingToolOptions } from '../../../lambda/mcp/index.js';
import { initialize, inSession, makeServer, parseSse, post, readJson, rpc } from './helpers.js';

/** A session store whose reads wait until the test opens the gate, recording what happened meanwhile. */
class GatedSessionStore extends InMemorySessionStore {
  readonly events: string[] = [];
  #gate: Promise<void> = Promise.resolve();
  #open: () => void = () => undefined;

  close(): void {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
  }

  open(): void {
    this.#open();
  }

  override async get(sessionId: string): Promise<SessionRecord | undefined> {
    this.events.push('session read started');
    await this.#gate;
    this.events.push('session read finished');
    return super.get(sessionId);
  }
}

interface Harness {
  server: McpServer;
  store: GatedSessionStore;
  prepared: unknown[];
  signals: AbortSignal[];
}

function harness(opts: { early: boolean; hook?: StreamingToolOptions['beforeStream'] }): Harness {
  const store = new GatedSessionStore();
  const server = makeServer({ keepaliveMs: 0, sessionStore: store });
  const h: Harness = { server, store, prepared: [], signals: [] };
  server.registerStreamingTool(
    { name: 'planned', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    (_args, ctx) => {
      h.prepared.push(ctx.prepared);
      return Promise.resolve({ content: [{ type: 'text', text: 'done' }] });
    },
    {
      shouldStream: (ctx) => ctx.meta['stream'] === true,
      sessionIndependentPreflight: opts.early,
      beforeStream: async (args, ctx) => {
        store.events.push('hook started');
        h.signals.push(ctx.signal);
        if (opts.hook !== undefined) return opts.hook(args, ctx);
        return { plan: (args as { n?: number }).n ?? 0 };
      },
    },
  );
  return h;
}

const call = (sessionId: string, headers: Record<string, string> = inSession(sessionId)) =>
  post(rpc(1, 'tools/call', { name: 'planned', arguments: { n: 3 }, _meta: { stream: true } }), headers);

/** Lets pending promise jobs and immediates run, `turns` event-loop turns at most or until `done()`. */
async function settle(turns = 50, done = () => false): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * A session, plus one call through it with the store open, so the argument validator is loaded (its first
 * use imports ajv) and the measured call below takes only a few event-loop turns to reach the hook.
 */
async function warmSession(h: Harness): Promise<string> {
  const sessionId = await initialize(h.server);
  await (await h.server.handle(call(sessionId))).text();
  h.store.events.length = 0;
  h.prepared.length = 0;
  h.signals.length = 0;
  return sessionId;
}

describe('session-independent beforeStream (session-ful shape)', () => {
  it('starts the hook while the session is still being read, and streams with its result', async () => {
    const h = harness({ early: true });
    const sessionId = await warmSession(h);
    h.store.close();
    const pending = h.server.handle(call(sessionId));
    await settle(1000, () => h.store.events.includes('hook started'));
    assert.deepEqual(h.store.events, ['session read started', 'hook started']);
    h.store.open();
    const res = await pending;
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const frames = parseSse(await res.text()).filter((b) => b.data !== undefined);
    const final = JSON.parse(frames.at(-1)?.data ?? '{}') as { result?: { isError?: boolean } };
    assert.equal(final.result?.isError, undefined);
    assert.deepEqual(h.prepared, [{ plan: 3 }]);
    assert.equal(h.store.events.filter((e) => e === 'hook started').length, 1);
  });

  it('runs the hook only after the session read when the tool does not opt in', async () => {
    const h = harness({ early: false });
    const sessionId = await warmSession(h);
    h.store.close();
    const pending = h.server.handle(call(sessionId));
    await settle();
    assert.deepEqual(h.store.events, ['session read started']);
    h.store.open();
    await (await pending).text();
    assert.deepEqual(h.store.events, ['session read started', 'session read finished', 'hook started']);
    assert.deepEqual(h.prepared, [{ plan: 3 }]);
  });

  it('waits for the session read when the request states no MCP-Protocol-Version', async () => {
    const h = harness({ early: true });
    const sessionId = await warmSession(h);
    h.store.close();
    const pending = h.server.handle(call(sessionId, { 'mcp-session-id': sessionId }));
    await settle();
    assert.deepEqual(h.store.events, ['session read started']);
    h.store.open();
    await (await pending).text();
    assert.deepEqual(h.prepared, [{ plan: 3 }]);
  });

  it('answers an unknown session with 404 even when the early hook refuses, and aborts the hook', async () => {
    const h = harness({
      early: true,
      hook: () => Promise.reject(new InvalidParamsError('not your context')),
    });
    await initialize(h.server);
    const res = await readJson(await h.server.handle(call('no-such-session')));
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'session not found' });
    await settle(1000, () => h.signals.length > 0);
    assert.equal(h.signals.length, 1);
    assert.equal(h.signals[0]?.aborted, true);
    assert.deepEqual(h.prepared, []);
  });

  it('answers a refusal of the early hook exactly as a refusal of the hook run after the session', async () => {
    const refuse = () => Promise.reject(new InvalidParamsError('not your context'));
    const answers = [];
    for (const early of [true, false]) {
      const h = harness({ early, hook: refuse });
      const sessionId = await initialize(h.server);
      const res = await h.server.handle(call(sessionId));
      assert.equal(res.headers.get('content-type'), 'application/json');
      answers.push(await readJson(res));
      assert.deepEqual(h.prepared, []);
    }
    const first = answers[0] as { status: number; body: { error: { code: number; message: string } } };
    assert.equal(first.status, 200);
    assert.equal(first.body.error.code, -32602);
    assert.equal(first.body.error.message, 'not your context');
    assert.deepEqual(answers[0], answers[1]);
  });

  it('answers invalid arguments after the session check, as before', async () => {
    const h = harness({ early: true });
    await initialize(h.server);
    const bad = post(
      rpc(1, 'tools/call', { name: 'planned', arguments: { n: 'three' }, _meta: { stream: true } }),
      inSession('no-such-session'),
    );
    const res = await readJson(await h.server.handle(bad));
    assert.equal(res.status, 404);
    assert.deepEqual(
      h.store.events.filter((e) => e === 'hook started'),
      [],
    );
  });
});
