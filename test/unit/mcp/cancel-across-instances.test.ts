/**
 * `notifications/cancelled` served by another execution environment than the call it names (each POST is
 * its own Lambda invocation): two `McpServer`s share their stores, as two warm instances share DynamoDB.
 * The call runs on `running`; the notification reaches `other`, which leaves a marker the call polls for.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  InMemoryCancelStore,
  InMemorySessionStore,
  McpServer,
  silentLogger,
} from '../../../lambda/mcp/index.js';
import type {
  McpInvocationContext,
  McpServerOptions,
  StreamingToolContext,
} from '../../../lambda/mcp/index.js';
import { initialize, inSession, parseSse, post, rpc } from './helpers.js';
import { modernMeta, modernPost } from './stateless/helpers.js';

const POLL_MS = 20;

/** Two instances over one session store and one cancel store, with a tool that waits for its abort. */
function twoInstances(): { running: McpServer; other: McpServer; aborted: () => boolean } {
  const shared: Partial<McpServerOptions> = {
    sessionStore: new InMemorySessionStore(),
    cancelStore: new InMemoryCancelStore(),
    cancelPollMs: POLL_MS,
    keepaliveMs: 0,
  };
  let sawAbort = false;
  const make = (): McpServer => {
    const server = new McpServer({ name: 't', version: '1', logger: silentLogger, ...shared });
    server.registerStreamingTool({ name: 'wait', inputSchema: { type: 'object' } }, (_args, ctx) =>
      waitForAbort(ctx, () => (sawAbort = true)),
    );
    return server;
  };
  return { running: make(), other: make(), aborted: () => sawAbort };
}

function waitForAbort(ctx: StreamingToolContext, onAbort: () => void): Promise<never> {
  ctx.comment('started');
  return new Promise((_resolve, reject) => {
    ctx.signal.addEventListener('abort', () => {
      onAbort();
      reject(ctx.signal.reason as Error);
    });
  });
}

const alice: McpInvocationContext = { principal: { subject: 'alice', scopes: [] } };
const mallory: McpInvocationContext = { principal: { subject: 'mallory', scopes: [] } };

/** Reads the stream to its end, or gives up after `ms` (then the call was not cancelled). */
async function readWithin(res: Response, ms: number): Promise<{ text: string; ended: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timeout = setTimeout(() => void reader.cancel().catch(() => undefined), ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, ended: text.includes('"id"') };
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timeout);
  }
}

function finalFrame(text: string): { id?: unknown; error?: unknown } {
  return JSON.parse(parseSse(text).at(-1)!.data!) as { id?: unknown; error?: unknown };
}

describe('notifications/cancelled from another execution environment', () => {
  it('session-ful: ends the running call with its final frame within a few polls', async () => {
    const { running, other, aborted } = twoInstances();
    const session = await initialize(running, { protocolVersion: '2025-11-25' }, alice);
    const res = await running.handle(
      post(rpc('long', 'tools/call', { name: 'wait', arguments: {} }), inSession(session)),
      alice,
    );
    const cancelledAt = Date.now();
    const cancel = await other.handle(
      post(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long' } },
        inSession(session),
      ),
      alice,
    );
    assert.equal(cancel.status, 202);
    const { text, ended } = await readWithin(res, 2_000);
    assert.ok(ended, 'the stream never closed');
    assert.ok(Date.now() - cancelledAt < 10 * POLL_MS + 500);
    assert.ok(aborted());
    assert.deepEqual(finalFrame(text), {
      jsonrpc: '2.0',
      id: 'long',
      error: { code: -32800, message: 'Request cancelled' },
    });
  });

  it('stateless: the caller cancels its own request by id', async () => {
    const { running, other, aborted } = twoInstances();
    const res = await running.handle(modernPost(7, 'tools/call', { name: 'wait', arguments: {} }), alice);
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const cancel = await other.handle(
      modernPost(undefined, 'notifications/cancelled', { requestId: 7, _meta: modernMeta() }),
      alice,
    );
    assert.equal(cancel.status, 202);
    const { text, ended } = await readWithin(res, 2_000);
    assert.ok(ended && aborted());
    assert.deepEqual((finalFrame(text) as { error: unknown }).error, {
      code: -32800,
      message: 'Request cancelled',
    });
  });

  it('stateless: another principal naming the same id cancels nothing', async () => {
    const { running, other, aborted } = twoInstances();
    const res = await running.handle(modernPost(7, 'tools/call', { name: 'wait', arguments: {} }), alice);
    const cancel = await other.handle(
      modernPost(undefined, 'notifications/cancelled', { requestId: 7, _meta: modernMeta() }),
      mallory,
    );
    assert.equal(cancel.status, 202);
    await new Promise((resolve) => setTimeout(resolve, 20 * POLL_MS));
    assert.equal(aborted(), false);
    await res.body?.cancel();
  });

  it('a marker left for a finished request does not cancel a later call that reuses its id', async () => {
    const { running, other, aborted } = twoInstances();
    const cancel = await other.handle(
      modernPost(undefined, 'notifications/cancelled', { requestId: 3, _meta: modernMeta() }),
      alice,
    );
    assert.equal(cancel.status, 202);
    // Older than the grace a notification has to overtake its request.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const res = await running.handle(modernPost(3, 'tools/call', { name: 'wait', arguments: {} }), alice);
    await new Promise((resolve) => setTimeout(resolve, 20 * POLL_MS));
    assert.equal(aborted(), false);
    await res.body?.cancel();
  });

  it('an unknown request id is accepted and ignored', async () => {
    const { other } = twoInstances();
    const session = await initialize(other, { protocolVersion: '2025-11-25' }, alice);
    const cancel = await other.handle(
      post(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nobody' } },
        inSession(session),
      ),
      alice,
    );
    assert.equal(cancel.status, 202);
  });
});
