/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON */
/** BOS federated reads as MCP 2025-11-25 tasks: same final result as the plain call, per-source status. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../../lambda/bos/index.js';
import { InMemoryTaskStore } from '../../../lambda/mcp/index.js';
import type { TaskRecord } from '../../../lambda/mcp/index.js';
import { parseSseBody } from '../../helpers/sse.js';
import { createHarness } from './platform-harness.js';

/** Records every status message written, to observe progress without timing. */
class WatchedStore extends InMemoryTaskStore {
  readonly messages: string[] = [];

  override replace(record: TaskRecord, expectedVersion: number): Promise<boolean> {
    if (record.statusMessage !== undefined) this.messages.push(record.statusMessage);
    return super.replace(record, expectedVersion);
  }
}

describe('BOS tools as tasks', () => {
  it('runs bos_execute as a task whose result is the plain call result, reporting sources as they finish', async () => {
    const store = new WatchedStore();
    const harness = await createHarness({ tasks: { store, pollIntervalMs: 20 } });
    const session = await harness.session(harness.auth.tokens['dev-user']);
    const args = {
      context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
      tool_name: 'search_people',
      arguments: { query: 'a' },
    };
    const plain = (await (await session.call('bos_execute', args)).json()) as {
      result: Record<string, unknown>;
    };
    const created = (await (
      await session.rpc('tools/call', { name: 'bos_execute', arguments: args, task: {} })
    ).json()) as { result: { task: { taskId: string; status: string } } };
    assert.equal(created.result.task.status, 'working');
    const taskId = created.result.task.taskId;
    // While the task runs, tasks/result answers as an SSE stream: task status notifications, then the
    // result as the last event (plain JSON if the task had already ended).
    const answer = await session.rpc('tasks/result', { taskId });
    const text = await answer.text();
    const events = answer.headers.get('content-type')?.startsWith('text/event-stream')
      ? parseSseBody(text).items.flatMap((item) =>
          item.kind === 'event' && item.data !== '' ? [JSON.parse(item.data) as Record<string, unknown>] : [],
        )
      : [JSON.parse(text) as Record<string, unknown>];
    for (const status of events.slice(0, -1)) assert.equal(status.method, 'notifications/tasks/status');
    const result = events[events.length - 1] as {
      result: Record<string, unknown> & { _meta: Record<string, unknown> };
    };
    const { 'io.modelcontextprotocol/related-task': related, ...meta } = result.result._meta;
    assert.deepEqual(related, { taskId });
    assert.deepEqual({ ...result.result, _meta: meta }, plain.result);
    const total = /^0 of (\d+) sources complete$/.exec(store.messages[0] ?? '')?.[1];
    assert.ok(total !== undefined, `first status: ${store.messages[0]}`);
    assert.ok(store.messages.includes(`${total} of ${total} sources complete`), store.messages.join(' | '));
    assert.equal((await (await session.rpc('tasks/get', { taskId })).json()).result.status, 'completed');
    await harness.platform.server.settled();
  });

  it('lists bos_execute as task-capable and keeps the listing tools synchronous', async () => {
    const harness = await createHarness({ tasks: { store: new InMemoryTaskStore() } });
    const session = await harness.session(harness.auth.tokens['dev-user']);
    const list = (await (await session.rpc('tools/list', {})).json()) as {
      result: { tools: { name: string; execution?: { taskSupport?: string } }[] };
    };
    const support = Object.fromEntries(list.result.tools.map((t) => [t.name, t.execution?.taskSupport]));
    assert.equal(support.bos_execute, 'optional');
    assert.equal(support.search_people, 'optional');
    assert.equal(support.bos_list_tools, undefined);
    assert.deepEqual(session.initialized.result.capabilities.tasks, {
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
  });
});
