/**
 * Bounds on task rounds: a round never outlives its task's TTL (its signal aborts when the TTL passes);
 * a principal never has more rounds running than its cap, with short TTLs and with concurrent creates; a
 * TTL under the smallest useful one is raised to it; a claim survives a short store outage; a round that
 * no worker claims reads `failed` once its claim window has passed, not at its TTL.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import {
  InMemoryTaskStore,
  McpServer,
  silentLogger,
  TaskStoreUnavailableError,
  tasksExtension,
} from '../../../../lambda/mcp/index.js';
import type {
  McpInvocationContext,
  TaskRef,
  TaskRuntimeOptions,
  TaskStore,
} from '../../../../lambda/mcp/index.js';
import { initialize, inSession, post, rpc } from '../helpers.js';
import { modernMeta, modernPost } from '../stateless/helpers.js';

type Body = { result?: Record<string, unknown>; error?: { code: number; message: string } };

const meta = modernMeta({
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [tasksExtension]: {} } },
});
const alice: McpInvocationContext = { principal: { subject: 'alice', scopes: [] } };

/**
 * A server with an in-process task runtime whose tool `slow` runs until its signal aborts or `holdMs`
 * passes (whichever is first), then lingers `lingerMs` more, counting how many run at once.
 */
function setup(tasks: Partial<TaskRuntimeOptions> = {}, holdMs = 2000, lingerMs = 0) {
  let running = 0;
  let peak = 0;
  const aborted: number[] = [];
  const mcp = new McpServer({
    name: 't',
    version: '1',
    logger: silentLogger,
    deadlineReserveMs: 0,
    tasks: { store: new InMemoryTaskStore(), cancelPollMs: 20, ...tasks },
  });
  mcp.registerTool(
    { name: 'slow', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      running += 1;
      peak = Math.max(peak, running);
      const started = Date.now();
      try {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, holdMs);
          ctx.signal.addEventListener('abort', () => {
            aborted.push(Date.now() - started);
            clearTimeout(timer);
            resolve();
          });
        });
        await sleep(lingerMs);
        return { content: [{ type: 'text', text: 'done' }] };
      } finally {
        running -= 1;
      }
    },
  );
  const call = async (method: string, params: Record<string, unknown>): Promise<Body> => {
    const headers = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
    const response = await mcp.handle(modernPost(1, method, { ...params, _meta: meta }, headers), alice);
    return (await response.json()) as Body;
  };
  /** A request in one 2025-11-25 session (the shape where the client asks for a TTL); its `result`. */
  let session: Promise<string> | undefined;
  const sessionful = async (method: string, params: Record<string, unknown>) => {
    session ??= initialize(mcp, { protocolVersion: '2025-11-25', capabilities: { tasks: {} } }, alice);
    const response = await mcp.handle(post(rpc(1, method, params), inSession(await session)), alice);
    return ((await response.json()) as { result?: Record<string, unknown> }).result;
  };
  /** A task-augmented call of `slow` asking for `ttl`; the task as created. */
  const callWithTtl = async (ttl: number) =>
    (await sessionful('tools/call', { name: 'slow', arguments: {}, task: { ttl } }))?.task as
      Record<string, unknown> | undefined;
  return { mcp, call, callWithTtl, sessionful, peak: () => peak, running: () => running, aborted };
}

describe('task rounds and the TTL', () => {
  it('aborts a round when its task’s TTL passes', async () => {
    const { mcp, aborted, callWithTtl } = setup({ minTtlMs: 100 });
    const created = await callWithTtl(300);
    assert.equal(created?.status, 'working');
    await sleep(1000);
    await mcp.settled();
    assert.equal(aborted.length, 1, 'the round was aborted');
    assert.ok((aborted[0] ?? 0) < 600, `aborted after ${aborted[0]} ms, TTL 300 ms`);
  });

  it('never runs more rounds for one principal than its cap while short-TTL tasks expire', async () => {
    // Rounds outlive their abort by 150 ms, as a federation does while its sources wind down.
    const { mcp, callWithTtl, peak } = setup({ minTtlMs: 100, maxActivePerPrincipal: 2 }, 2000, 150);
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      await callWithTtl(200);
      await sleep(25);
    }
    await mcp.settled();
    assert.ok(peak() <= 2, `peak ${peak()} rounds running, cap 2`);
  });

  it('never admits more tasks than the cap from concurrent creates', async () => {
    const { mcp, call, peak } = setup({ maxActivePerPrincipal: 2 }, 300);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call('tools/call', { name: 'slow', arguments: {} })),
    );
    const admitted = answers.filter((a) => a.result?.status === 'working');
    const refused = answers.filter((a) => a.error?.code === -32602);
    assert.ok(admitted.length <= 2, `${admitted.length} admitted`);
    assert.equal(admitted.length + refused.length, 6);
    await mcp.settled();
    assert.ok(peak() <= 2);
  });

  it('raises a TTL under the smallest useful one to it, so the task is readable at once', async () => {
    const { sessionful, callWithTtl } = setup({ minTtlMs: 5000 });
    for (const ttl of [0.5, 1]) {
      const created = await callWithTtl(ttl);
      assert.equal(created?.ttl, 5000, `ttl ${ttl}`);
      const taskId = created?.taskId as string;
      const read = await sessionful('tasks/get', { taskId });
      assert.equal(read?.status, 'working', `ttl ${ttl}`);
      await sessionful('tasks/cancel', { taskId });
    }
  });
});

describe('task rounds and store outages', () => {
  /** A store that answers every call with an outage while `down()` is true. */
  function flaky(store: TaskStore, down: () => boolean): TaskStore {
    return new Proxy(store, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          down()
            ? Promise.reject(new TaskStoreUnavailableError())
            : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  }

  it('claims a round through a store outage of about a second as the round starts', async () => {
    let outageUntil = 0;
    const launched: TaskRef[] = [];
    const { mcp, call } = setup(
      {
        store: flaky(new InMemoryTaskStore(), () => Date.now() < outageUntil),
        launcher: { launch: (ref) => (launched.push(ref), Promise.resolve()) },
      },
      50,
    );
    const created = await call('tools/call', { name: 'slow', arguments: {} });
    const taskId = created.result?.taskId as string;
    outageUntil = Date.now() + 1200;
    await mcp.runTask(launched[0] as TaskRef, { workerId: 'w1' });
    const task = await call('tasks/get', { taskId });
    assert.equal(task.result?.status, 'completed');
  });

  it('fails a round that no worker claims once its claim window has passed', async () => {
    const { call } = setup({ claimWindowMs: 300, launcher: { launch: () => Promise.resolve() } });
    const created = await call('tools/call', { name: 'slow', arguments: {} });
    const taskId = created.result?.taskId as string;
    assert.equal((await call('tasks/get', { taskId })).result?.status, 'working');
    await sleep(400);
    const task = await call('tasks/get', { taskId });
    assert.equal(task.result?.status, 'failed');
    assert.deepEqual(task.result?.error, { code: -32603, message: 'Task could not be started' });
  });
});
