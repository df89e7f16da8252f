/**
 * The 2026-07-28 tasks extension end to end through `McpServer.handle`, on the in-memory task store:
 * principal binding, limits, cancellation, multi-round input and the lazy failure of a dead worker.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { InMemoryTaskStore, McpServer, silentLogger, tasksExtension } from '../../../../lambda/mcp/index.js';
import type { McpInvocationContext, TaskLauncher, TaskRuntimeOptions } from '../../../../lambda/mcp/index.js';
import { modernMeta, modernPost } from './helpers.js';

type Body = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

const withTasks = modernMeta({
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [tasksExtension]: {} } },
});

const alice: McpInvocationContext = { principal: { subject: 'alice', scopes: [] } };
const bob: McpInvocationContext = { principal: { subject: 'bob', scopes: [] } };

function server(tasks: Partial<TaskRuntimeOptions> = {}): McpServer {
  const mcp = new McpServer({
    name: 't',
    version: '1',
    logger: silentLogger,
    tasks: { store: new InMemoryTaskStore(), cancelPollMs: 20, ...tasks },
  });
  mcp.registerTool(
    { name: 'wait', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
    async (args, ctx) => {
      await sleep(typeof args.ms === 'number' ? args.ms : 0, undefined, { signal: ctx.signal });
      return { content: [{ type: 'text', text: `waited for ${ctx.principal?.subject ?? 'nobody'}` }] };
    },
  );
  mcp.registerTool(
    { name: 'ask', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
    (_args, ctx) =>
      Promise.resolve(
        ctx.inputResponses?.a !== undefined && ctx.inputResponses.b !== undefined
          ? { content: [{ type: 'text', text: 'both answered' }] }
          : {
              content: [],
              resultType: 'input_required',
              inputRequests: {
                a: {
                  method: 'elicitation/create',
                  params: { message: 'a?', requestedSchema: { type: 'object' } },
                },
                b: {
                  method: 'elicitation/create',
                  params: { message: 'b?', requestedSchema: { type: 'object' } },
                },
              },
            },
      ),
  );
  return mcp;
}

async function call(
  mcp: McpServer,
  method: string,
  params: Record<string, unknown>,
  ctx: McpInvocationContext = alice,
): Promise<Body> {
  const headers = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  const response = await mcp.handle(modernPost(1, method, { ...params, _meta: withTasks }, headers), ctx);
  return (await response.json()) as Body;
}

async function create(mcp: McpServer, args: Record<string, unknown>, ctx = alice): Promise<string> {
  const body = await call(mcp, 'tools/call', { name: 'wait', arguments: args }, ctx);
  assert.equal(body.result?.resultType, 'task', JSON.stringify(body));
  return body.result?.taskId as string;
}

async function until(mcp: McpServer, taskId: string, status: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i += 1) {
    const task = (await call(mcp, 'tasks/get', { taskId })).result ?? {};
    if (task.status === status) return task;
    await sleep(10);
  }
  throw new Error(`task never reached ${status}`);
}

describe('2026-07-28 tasks on the in-memory store', () => {
  it('mints 128-bit hex task ids and completes with the inlined result', async () => {
    const mcp = server();
    const taskId = await create(mcp, { ms: 0 });
    assert.match(taskId, /^[0-9a-f]{32}$/);
    const done = await until(mcp, taskId, 'completed');
    assert.deepEqual(done.result, { content: [{ type: 'text', text: 'waited for alice' }] });
    await mcp.settled();
  });

  it('answers another principal exactly as it answers an unknown task id', async () => {
    const mcp = server();
    const taskId = await create(mcp, { ms: 5000 });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const extra = method === 'tasks/update' ? { inputResponses: {} } : {};
      const foreign = await call(mcp, method, { taskId, ...extra }, bob);
      const unknown = await call(mcp, method, { taskId: 'f'.repeat(32), ...extra }, alice);
      assert.deepEqual(foreign, unknown, method);
      assert.equal(foreign.error?.code, -32602);
    }
    assert.equal((await call(mcp, 'tasks/get', { taskId })).result?.status, 'working');
    await call(mcp, 'tasks/cancel', { taskId });
    await mcp.settled();
  });

  it('cancels a running task cooperatively and acks a second cancel on the terminal task', async () => {
    const mcp = server();
    const taskId = await create(mcp, { ms: 60_000 });
    const ack = await call(mcp, 'tasks/cancel', { taskId });
    assert.deepEqual(Object.keys(ack.result ?? {}).sort(), ['_meta', 'resultType']);
    await mcp.settled();
    assert.equal((await until(mcp, taskId, 'cancelled')).status, 'cancelled');
    assert.equal((await call(mcp, 'tasks/cancel', { taskId })).result?.resultType, 'complete');
  });

  it('refuses a task beyond the per-principal cap with a clear error, and counts principals apart', async () => {
    const mcp = server({ maxActivePerPrincipal: 1 });
    const first = await create(mcp, { ms: 60_000 });
    const refused = await call(mcp, 'tools/call', { name: 'wait', arguments: { ms: 0 } });
    assert.equal(refused.error?.code, -32602);
    assert.match(refused.error?.message ?? '', /Too many active tasks: at most 1 per principal/);
    const other = await create(mcp, { ms: 0 }, bob);
    assert.ok(other);
    await call(mcp, 'tasks/cancel', { taskId: first });
    await mcp.settled();
  });

  it('keeps a task input_required until every request is answered, then completes it', async () => {
    const mcp = server();
    const body = await call(mcp, 'tools/call', { name: 'ask', arguments: {} });
    const taskId = body.result?.taskId as string;
    const waiting = await until(mcp, taskId, 'input_required');
    assert.deepEqual(Object.keys(waiting.inputRequests as object).sort(), ['a', 'b']);
    await call(mcp, 'tasks/update', { taskId, inputResponses: { a: { action: 'accept', content: {} } } });
    const partial = (await call(mcp, 'tasks/get', { taskId })).result ?? {};
    assert.equal(partial.status, 'input_required');
    assert.deepEqual(Object.keys(partial.inputRequests as object), ['b']);
    await call(mcp, 'tasks/update', { taskId, inputResponses: { b: { action: 'decline' } } });
    const done = await until(mcp, taskId, 'completed');
    assert.deepEqual(done.result, { content: [{ type: 'text', text: 'both answered' }] });
    await mcp.settled();
  });

  it('reads a task that no worker claimed as failed once its claim window has passed', async () => {
    let now = 1_000_000;
    const dead: TaskLauncher = { launch: () => Promise.resolve() };
    const mcp = new McpServer({
      name: 't',
      version: '1',
      logger: silentLogger,
      clock: () => now,
      tasks: { store: new InMemoryTaskStore(), launcher: dead, claimWindowMs: 5000 },
    });
    mcp.registerTool(
      { name: 'wait', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
      () => Promise.resolve({ content: [] }),
    );
    const taskId = await create(mcp, {});
    assert.equal((await call(mcp, 'tasks/get', { taskId })).result?.status, 'working');
    now += 5001;
    const failed = (await call(mcp, 'tasks/get', { taskId })).result ?? {};
    assert.equal(failed.status, 'failed');
    assert.deepEqual(failed.error, { code: -32603, message: 'Task could not be started' });
  });

  it('treats a task past its ttl as unknown', async () => {
    let now = 1_000_000;
    const mcp = new McpServer({
      name: 't',
      version: '1',
      logger: silentLogger,
      clock: () => now,
      tasks: { store: new InMemoryTaskStore(), defaultTtlMs: 1000 },
    });
    mcp.registerTool(
      { name: 'wait', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
      () => Promise.resolve({ content: [] }),
    );
    const taskId = await create(mcp, {});
    await mcp.settled();
    now += 1000;
    assert.equal((await call(mcp, 'tasks/get', { taskId })).error?.code, -32602);
  });

  it('never creates a task for a client that did not declare the extension', async () => {
    const mcp = server();
    const response = await mcp.handle(
      modernPost(1, 'tools/call', { name: 'wait', arguments: { ms: 0 }, _meta: modernMeta() }),
      alice,
    );
    const body = (await response.json()) as Body;
    assert.equal(body.result?.resultType, 'complete');
    assert.equal(body.result?.taskId, undefined);
  });
});
