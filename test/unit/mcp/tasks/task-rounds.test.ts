/**
 * Task rounds started by a launcher, as a worker invocation runs them (`McpServer.runTask`): a round is
 * claimed once, so a second delivery of the same event runs nothing; the worker re-checks the stored
 * principal binding; the round's deadline is brought forward to the worker invocation's own; a launch that
 * fails settles the task as failed at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryTaskStore, McpServer, silentLogger, tasksExtension } from '../../../../lambda/mcp/index.js';
import type { McpInvocationContext, TaskLauncher, TaskRef } from '../../../../lambda/mcp/index.js';
import { modernMeta, modernPost } from '../stateless/helpers.js';

type Body = { result?: Record<string, unknown>; error?: { code: number; message: string } };

const meta = modernMeta({
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [tasksExtension]: {} } },
});
const alice: McpInvocationContext = { principal: { subject: 'alice', scopes: [] } };

/** A server whose launcher only records (or refuses) launches, and whose tool counts its runs. */
function setup(launcher: Partial<TaskLauncher> = {}) {
  const launched: TaskRef[] = [];
  const store = new InMemoryTaskStore();
  let runs = 0;
  const mcp = new McpServer({
    name: 't',
    version: '1',
    logger: silentLogger,
    tasks: {
      store,
      launcher: {
        launch: (ref) => {
          launched.push(ref);
          return launcher.launch?.(ref) ?? Promise.resolve();
        },
      },
    },
  });
  mcp.registerTool(
    { name: 'count', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
    () => {
      runs += 1;
      return Promise.resolve({ content: [{ type: 'text', text: `run ${runs}` }] });
    },
  );
  const call = async (method: string, params: Record<string, unknown>): Promise<Body> => {
    const headers = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
    const response = await mcp.handle(modernPost(1, method, { ...params, _meta: meta }, headers), alice);
    return (await response.json()) as Body;
  };
  return { mcp, store, launched, runs: () => runs, call };
}

describe('task rounds run by a worker', () => {
  it('runs a round once even when its event is delivered twice', async () => {
    const { mcp, launched, runs, call } = setup();
    const created = await call('tools/call', { name: 'count', arguments: {} });
    const taskId = created.result?.taskId as string;
    assert.equal(launched.length, 1);
    const [ref] = launched as [TaskRef];
    await Promise.all([mcp.runTask(ref, { workerId: 'w1' }), mcp.runTask(ref, { workerId: 'w2' })]);
    await mcp.runTask(ref, { workerId: 'w3' });
    assert.equal(runs(), 1);
    const task = (await call('tasks/get', { taskId })).result ?? {};
    assert.equal(task.status, 'completed');
    assert.deepEqual(task.result, { content: [{ type: 'text', text: 'run 1' }] });
  });

  it('runs nothing for a reference whose owner key is not the stored principal’s', async () => {
    const { mcp, store, launched, runs, call } = setup();
    const created = await call('tools/call', { name: 'count', arguments: {} });
    const taskId = created.result?.taskId as string;
    const [ref] = launched as [TaskRef];
    // The record is copied under another owner key, as a forged worker event would name it.
    const record = await store.get(ref.owner, taskId);
    assert.ok(record !== undefined);
    const forged = { owner: `p#${'0'.repeat(40)}`, taskId };
    await store.create({ ...record, owner: forged.owner });
    await mcp.runTask(forged, { workerId: 'w1' });
    assert.equal(runs(), 0);
    assert.equal((await store.get(forged.owner, taskId))?.status, 'working');
  });

  it('brings the round’s deadline forward to the worker invocation’s deadline', async () => {
    const { mcp, store, launched, call } = setup();
    await call('tools/call', { name: 'count', arguments: {} });
    const [ref] = launched as [TaskRef];
    const before = await store.get(ref.owner, ref.taskId);
    // Before the claim the deadline is the claim window's end (30 s); the invocation's comes sooner.
    const deadline = Date.now() + 20_000;
    await mcp.runTask(ref, { workerId: 'w1', deadline });
    const after = await store.get(ref.owner, ref.taskId);
    assert.ok((before?.deadline ?? 0) > deadline);
    assert.equal(after?.deadline, deadline);
    assert.equal(after?.worker, 'w1');
  });

  it('settles a task whose launch fails as failed at once, in the create answer already', async () => {
    const { call, runs } = setup({ launch: () => Promise.reject(new Error('invoke refused')) });
    const created = await call('tools/call', { name: 'count', arguments: {} });
    assert.equal(created.result?.status, 'failed');
    const taskId = created.result?.taskId as string;
    const task = (await call('tasks/get', { taskId })).result ?? {};
    assert.equal(task.status, 'failed');
    assert.deepEqual(task.error, { code: -32603, message: 'Task could not be started' });
    assert.equal(runs(), 0);
  });
});
