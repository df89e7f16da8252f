/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * Task rounds in their own invocation, through the whole local stack: the function invokes itself
 * asynchronously through the stack's Invoke API, and the round runs as a separate invocation on a runtime
 * from the pool while the creating request has long been answered. A worker whose runtime is killed leaves
 * its task `failed` once the worker's deadline has passed, and a cancellation reaches the running worker.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { javaSuite } from '../helpers/java.js';
import { openSession, post, startBosStack } from '../helpers/bos-stack.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { logged, withLogLines } from '../helpers/log-lines.js';

/** Function timeout of the stack: a killed worker's task must read `failed` soon after it. */
const TIMEOUT_SECONDS = 20;

const searchArgs = {
  context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
  tool_name: 'search_people',
  arguments: { query: 'a' },
};

interface Task {
  taskId: string;
  status: string;
  statusMessage?: string;
}

describe('task rounds as worker invocations on the local stack', javaSuite(300_000), () => {
  let bos: BosStack;
  let token: string;
  let sessionId: string;
  let nextId = 1;

  const rpc = async (method: string, params: Record<string, unknown>): Promise<any> => {
    const response = await post(bos.url, {
      token,
      sessionId,
      body: { jsonrpc: '2.0', id: nextId++, method, params },
    });
    return response.json();
  };
  const createTask = async (): Promise<Task> => {
    const created = await rpc('tools/call', { name: 'bos_execute', arguments: searchArgs, task: {} });
    assert.equal(created.result?.task?.status, 'working', JSON.stringify(created));
    return created.result.task as Task;
  };
  /** The worker invocation of `taskId`, as the pool runs it; undefined when none is running. */
  const workerEvent = (taskId: string): unknown =>
    bos.stack.pool.runningEvents().find((event) => (event as { taskId?: unknown } | null)?.taskId === taskId);
  const waitFor = async <T>(
    what: string,
    probe: () => Promise<T | undefined> | T | undefined,
  ): Promise<T> => {
    const until = Date.now() + 60_000;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  };

  before(async () => {
    bos = await startBosStack({
      name: 'task-worker',
      timeoutSeconds: TIMEOUT_SECONDS,
      poolSize: 2,
      // Slow fixture sources, so a round is still running when the test looks at it.
      env: { BOS_FIXTURE_LATENCY_SCALE: '12' },
    });
    token = bos.token('dev-user');
    ({ sessionId } = await openSession(bos.url, token, { tasks: {} }));
  });
  after(async () => {
    await bos?.close();
  });

  it('answers the creating request at once and runs the round as its own invocation to completion', async () => {
    const task = await createTask();
    // The create response has been read whole: the round now runs in a separate invocation.
    const event = await waitFor('the worker invocation', () => workerEvent(task.taskId));
    assert.deepEqual(Object.keys(event as object).sort(), ['kind', 'owner', 'taskId', 'v']);
    assert.equal((event as { kind: string }).kind, 'bos-mcp/task-round');
    const messages = new Set<string>();
    const done = await waitFor('the task to end', async () => {
      const got = (await rpc('tasks/get', { taskId: task.taskId })).result as Task;
      if (got.statusMessage !== undefined) messages.add(got.statusMessage);
      return got.status === 'working' ? undefined : got;
    });
    assert.equal(done.status, 'completed');
    assert.ok(
      [...messages].some((m) => /^\d+ of \d+ sources complete$/.test(m)),
      [...messages].join(' | '),
    );
    const result = await rpc('tasks/result', { taskId: task.taskId });
    assert.ok(Array.isArray(result.result?.content), JSON.stringify(result).slice(0, 300));
    assert.equal(workerEvent(task.taskId), undefined);
  });

  it('cancels a running worker: the task reads cancelled and the worker invocation ends early', async () => {
    const task = await createTask();
    await waitFor('the worker invocation', () => workerEvent(task.taskId));
    const cancelled = await rpc('tasks/cancel', { taskId: task.taskId });
    assert.equal(cancelled.result?.status, 'cancelled');
    const started = Date.now();
    // The worker polls its task every second and aborts the federation engine's signal.
    await waitFor('the worker to stop', () => (workerEvent(task.taskId) === undefined ? true : undefined));
    assert.ok(Date.now() - started < 5000, `worker ran on for ${Date.now() - started} ms`);
    const after = (await rpc('tasks/get', { taskId: task.taskId })).result as Task;
    assert.equal(after.status, 'cancelled');
  });

  it('leaves the task of a killed worker failed, not working, once the worker deadline has passed', async () => {
    const task = await createTask();
    await waitFor('the worker invocation', () => workerEvent(task.taskId));
    // The worker has claimed the round once it reports progress: kill it in the middle of the federation.
    await waitFor('the first progress message', async () => {
      const got = (await rpc('tasks/get', { taskId: task.taskId })).result as Task;
      return got.statusMessage?.endsWith('sources complete') === true ? got : undefined;
    });
    const { result: killed } = await withLogLines(async (lines) => {
      const count = bos.stack.pool.crashWhere(
        (event) => (event as { taskId?: unknown } | null)?.taskId === task.taskId,
      );
      // The Invoke API reports the lost asynchronous invocation, as Lambda's metrics would.
      assert.ok(await logged(lines, 'asynchronous invocation failed'));
      return count;
    });
    assert.equal(killed, 1);
    const killedAt = Date.now();
    const right = (await rpc('tasks/get', { taskId: task.taskId })).result as Task;
    assert.equal(right.status, 'working', 'nothing is known yet right after the kill');
    const failed = await waitFor('the task to read failed', async () => {
      const got = (await rpc('tasks/get', { taskId: task.taskId })).result as Task;
      return got.status === 'working' ? undefined : got;
    });
    assert.equal(failed.status, 'failed');
    assert.ok(Date.now() - killedAt <= (TIMEOUT_SECONDS + 5) * 1000);
    const result = await rpc('tasks/result', { taskId: task.taskId });
    assert.equal(result.error?.code, -32603);
    assert.equal(result.error?.message, 'Task execution did not finish in time');
  });
});
