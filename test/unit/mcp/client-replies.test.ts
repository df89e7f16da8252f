/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * Server-to-client request replies across execution environments: the in-memory `ClientReplyStore`, the
 * waiting side (`PendingClientRequests`), and two `McpServer` instances sharing stores the way two Lambda
 * environments share DynamoDB, where the client's reply is POSTed to the instance not running the tool.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PendingClientRequests } from '../../../lambda/mcp/tools/client-requests.js';
import {
  InMemoryClientReplyStore,
  InMemorySessionStore,
  InMemoryStreamStore,
  McpError,
  silentLogger,
} from '../../../lambda/mcp/index.js';
import type { McpServer, McpServerOptions } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, manualClock, parseSse, post, rpc } from './helpers.js';

function pending(
  store: InMemoryClientReplyStore,
  overrides: Partial<ConstructorParameters<typeof PendingClientRequests>[0]> = {},
): PendingClientRequests {
  return new PendingClientRequests({ store, pollMs: 5, clock: Date.now, logger: silentLogger, ...overrides });
}

describe('InMemoryClientReplyStore', () => {
  it('hands a stored reply out once and then forgets it', async () => {
    // Prepare
    const store = new InMemoryClientReplyStore();
    await store.put('s1', 'srv-a', { result: { ok: true } });
    // Act
    const first = await store.take('s1', 'srv-a');
    const second = await store.take('s1', 'srv-a');
    // Assess
    assert.deepEqual(first, { result: { ok: true } });
    assert.equal(second, undefined);
  });

  it('keeps replies of different sessions apart', async () => {
    const store = new InMemoryClientReplyStore();
    await store.put('s1', 'srv-a', { result: { who: 's1' } });
    assert.equal(await store.take('s2', 'srv-a'), undefined);
    assert.deepEqual(await store.take('s1', 'srv-a'), { result: { who: 's1' } });
  });

  it('treats a reply past its retention as absent', async () => {
    const clock = manualClock();
    const store = new InMemoryClientReplyStore({ ttlMs: 1000, clock: clock.now });
    await store.put('s1', 'srv-a', { result: {} });
    clock.advance(1000);
    assert.equal(await store.take('s1', 'srv-a'), undefined);
  });

  it('drops the oldest reply when more than maxEntries are stored', async () => {
    const store = new InMemoryClientReplyStore({ maxEntries: 2 });
    await store.put('s', 'srv-1', { result: { n: 1 } });
    await store.put('s', 'srv-2', { result: { n: 2 } });
    await store.put('s', 'srv-3', { result: { n: 3 } });
    assert.equal(store.size, 2);
    assert.equal(await store.take('s', 'srv-1'), undefined);
    assert.deepEqual(await store.take('s', 'srv-3'), { result: { n: 3 } });
  });
});

describe('PendingClientRequests', () => {
  it('mints random srv- ids, distinct between two instances of one session', () => {
    const store = new InMemoryClientReplyStore();
    const controllers: AbortController[] = [];
    const ids = new Set<string>();
    for (const instance of [pending(store), pending(store)]) {
      for (let i = 0; i < 50; i += 1) {
        // One signal per request, as each tool call has its own.
        const controller = new AbortController();
        controllers.push(controller);
        const request = instance.create('s1', { signal: controller.signal, timeoutMs: 50 });
        request.result.catch(() => undefined);
        assert.match(request.id, /^srv-[0-9a-f]{32}$/);
        ids.add(request.id);
      }
    }
    for (const controller of controllers) controller.abort(new Error('done'));
    assert.equal(ids.size, 100);
  });

  it('delivers a reply routed by another instance through the shared store', async () => {
    // Prepare: the tool waits in instance A; the POST with the reply reaches instance B.
    const store = new InMemoryClientReplyStore();
    const a = pending(store);
    const b = pending(store);
    const request = a.create('s1', { signal: new AbortController().signal, timeoutMs: 5000 });
    // Act
    await b.route('s1', request.id, { action: 'accept' });
    // Assess
    assert.deepEqual(await request.result, { action: 'accept' });
    assert.equal(a.size, 0);
  });

  it('delivers a local reply directly without touching the store', async () => {
    const store = new InMemoryClientReplyStore();
    const a = pending(store, { pollMs: 60_000 });
    const request = a.create('s1', { signal: new AbortController().signal, timeoutMs: 5000 });
    await a.route('s1', request.id, { ok: 1 });
    assert.deepEqual(await request.result, { ok: 1 });
    assert.equal(store.size, 0);
  });

  it('rejects with the client’s JSON-RPC error when the client answered with one', async () => {
    const store = new InMemoryClientReplyStore();
    const a = pending(store);
    const request = a.create('s1', { signal: new AbortController().signal, timeoutMs: 5000 });
    await pending(store).route('s1', request.id, undefined, { code: -1, message: 'user declined' });
    await assert.rejects(request.result, (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -1);
      assert.equal(error.message, 'user declined');
      return true;
    });
  });

  it('does not store replies to ids this runtime never mints', async () => {
    const store = new InMemoryClientReplyStore();
    await pending(store).route('s1', 'someone-else', {});
    await pending(store).route('s1', 7, {});
    assert.equal(store.size, 0);
  });

  it('times out with -32001 when no reply arrives', async () => {
    const a = pending(new InMemoryClientReplyStore());
    const request = a.create('s1', { signal: new AbortController().signal, timeoutMs: 20 });
    await assert.rejects(
      request.result,
      (error: unknown) => error instanceof McpError && error.code === -32001,
    );
    assert.equal(a.size, 0);
  });

  it('stops waiting before the invocation deadline minus the reserve', async () => {
    const a = pending(new InMemoryClientReplyStore());
    const request = a.create('s1', {
      signal: new AbortController().signal,
      timeoutMs: 60_000,
      deadline: Date.now() + 40,
      deadlineReserveMs: 20,
    });
    await assert.rejects(
      request.result,
      (error: unknown) => error instanceof McpError && error.code === -32001,
    );
  });

  it('rejects with the abort reason and stops polling when the call is aborted', async () => {
    let takes = 0;
    const store = new InMemoryClientReplyStore();
    const counting = {
      put: store.put.bind(store),
      take: (sessionId: string, id: string) => {
        takes += 1;
        return store.take(sessionId, id);
      },
    };
    const a = new PendingClientRequests({
      store: counting,
      pollMs: 2,
      clock: Date.now,
      logger: silentLogger,
    });
    const controller = new AbortController();
    const request = a.create('s1', { signal: controller.signal, timeoutMs: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reason = new Error('cancelled');
    controller.abort(reason);
    await assert.rejects(request.result, (error) => error === reason);
    const after = takes;
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(after > 0, 'the waiter polled the store while waiting');
    assert.equal(takes, after, 'no poll after the abort');
  });
});

/** Two servers sharing every store, like two Lambda execution environments sharing DynamoDB. */
function twoInstances(): [McpServer, McpServer] {
  const shared: Partial<McpServerOptions> = {
    sessionStore: new InMemorySessionStore(),
    streamStore: new InMemoryStreamStore(),
    clientReplyStore: new InMemoryClientReplyStore(),
    clientReplyPollMs: 5,
    keepaliveMs: 0,
  };
  const make = (): McpServer => {
    const server = makeServer(shared);
    server.registerStreamingTool({ name: 'ask', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      const reply = await ctx.request('elicitation/create', { message: 'name?' });
      return { content: [{ type: 'text', text: `got ${JSON.stringify(reply)}` }] };
    });
    return server;
  };
  return [make(), make()];
}

describe('server-to-client requests across instances', () => {
  it('completes a tool on instance A when the client POSTs its reply to instance B', async () => {
    // Prepare
    const [a, b] = twoInstances();
    const session = await initialize(a);
    const res = await a.handle(
      post(rpc(1, 'tools/call', { name: 'ask', arguments: {} }), inSession(session)),
    );
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('elicitation/create')) {
      const chunk = await reader.read();
      assert.equal(chunk.done, false, 'the stream ended before the server request');
      text += decoder.decode(chunk.value, { stream: true });
    }
    const request = parseSse(text)
      .filter((block) => block.data?.includes('elicitation/create'))
      .map((block) => JSON.parse(block.data!))[0];
    // Act
    const answered = await b.handle(
      post(
        { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { n: 'x' } } },
        inSession(session),
      ),
    );
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    // Assess
    assert.equal(answered.status, 202);
    const final = parseSse(text)
      .map((block) => block.data ?? '')
      .filter((data) => data.includes('"result"'));
    assert.equal(final.length, 1);
    assert.deepEqual(JSON.parse(final[0]!).result.content, [
      { type: 'text', text: 'got {"action":"accept","content":{"n":"x"}}' },
    ]);
  });
});
