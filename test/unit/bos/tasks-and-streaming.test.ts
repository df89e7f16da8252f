/**
 * Tasks and `bos/source-results/v1` on one call (docs/tasks.md "Tasks and streaming"): a call that opts in
 * to streaming and carries no `task` parameter streams, even when its client declared the tasks extension;
 * a call that carries `task` runs as a task, never as a stream, and its status messages carry source
 * progress. Both orders, in both protocol shapes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryTaskStore } from '../../../lambda/mcp/index.js';
import type { TaskRecord } from '../../../lambda/mcp/index.js';
import { parseSseBody } from '../../helpers/sse.js';
import { createHarness, ENDPOINT } from './platform-harness.js';
import type { Harness } from './platform-harness.js';

const OPT_IN = { experimental: { 'bos/source-results/v1': {} } };
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** Records every status message written, to observe progress without timing. */
class WatchedStore extends InMemoryTaskStore {
  readonly messages: string[] = [];

  override replace(record: TaskRecord, expectedVersion: number): Promise<boolean> {
    if (record.statusMessage !== undefined) this.messages.push(record.statusMessage);
    return super.replace(record, expectedVersion);
  }
}

async function harnessWithTasks(): Promise<{ harness: Harness; store: WatchedStore }> {
  const store = new WatchedStore();
  return { harness: await createHarness({ tasks: { store, pollIntervalMs: 20 } }), store };
}

/** The JSON-RPC messages of an SSE body. */
function messages(text: string): Record<string, unknown>[] {
  return parseSseBody(text).items.flatMap((item) =>
    item.kind === 'event' && item.data !== '' ? [JSON.parse(item.data) as Record<string, unknown>] : [],
  );
}

/** The status messages the task wrote, once its round (and so the read) has finished. */
async function sourceProgress(store: WatchedStore, harness: Harness): Promise<string[]> {
  await harness.platform.server.settled();
  return store.messages;
}

function assertSourceProgress(progress: string[]): void {
  const total = /^0 of (\d+) sources complete$/.exec(progress[0] ?? '')?.[1];
  assert.ok(total !== undefined, `first status: ${progress[0]}`);
  assert.ok(progress.includes(`${total} of ${total} sources complete`), progress.join(' | '));
}

/** A stateless (2026-07-28) search_people call with the given client capabilities and params. */
function statelessCall(
  harness: Harness,
  capabilities: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<Response> {
  return harness.platform.handle(
    new Request(ENDPOINT, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${harness.auth.tokens['dev-user']}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'search_people',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'call-1',
        method: 'tools/call',
        params: {
          name: 'search_people',
          arguments: { query: 'a' },
          ...extra,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': capabilities,
            'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          },
        },
      }),
    }),
  );
}

describe('tasks and streaming, session-ful 2025-11-25', () => {
  it('streams a call that opts in and carries no task parameter', async () => {
    const { harness, store } = await harnessWithTasks();
    const session = await harness.session(harness.auth.tokens['dev-user']);
    const res = await session.call('search_people', { query: 'a' }, { optIn: {} });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const all = messages(await res.text());
    assert.ok(all.some((m) => m.method === 'notifications/bos/source_result'));
    assert.equal(all.at(-1)?.id, 'call-1');
    assert.deepEqual(store.messages, [], 'no task was created');
  });

  it('runs a call that opts in and carries task as a task whose status messages carry source progress', async () => {
    const { harness, store } = await harnessWithTasks();
    const session = await harness.session(harness.auth.tokens['dev-user']);
    const res = await session.rpc('tools/call', {
      name: 'search_people',
      arguments: { query: 'a' },
      task: {},
      _meta: { 'io.modelcontextprotocol/clientCapabilities': OPT_IN },
    });
    assert.equal(res.headers.get('content-type'), 'application/json');
    const created = (await res.json()) as { result: { task: { status: string } } };
    assert.equal(created.result.task.status, 'working');
    assertSourceProgress(await sourceProgress(store, harness));
  });
});

describe('tasks and streaming, stateless 2026-07-28 with the tasks extension declared', () => {
  it('streams a call that opts in and carries no task parameter', async () => {
    const { harness, store } = await harnessWithTasks();
    const res = await statelessCall(harness, { ...TASKS, ...OPT_IN });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const all = messages(await res.text());
    assert.ok(all.some((m) => m.method === 'notifications/bos/source_result'));
    const final = all.at(-1) as { id: unknown; result: { resultType: string } };
    assert.equal(final.id, 'call-1');
    assert.equal(final.result.resultType, 'complete');
    assert.deepEqual(store.messages, [], 'no task was created');
  });

  it('runs a call that opts in and carries task as a task whose status messages carry source progress', async () => {
    const { harness, store } = await harnessWithTasks();
    const res = await statelessCall(harness, { ...TASKS, ...OPT_IN }, { task: {} });
    assert.equal(res.headers.get('content-type'), 'application/json');
    const created = (await res.json()) as { result: { resultType: string; status: string } };
    assert.equal(created.result.resultType, 'task');
    assertSourceProgress(await sourceProgress(store, harness));
  });

  it('still runs a call without the opt-in as a task (the server decides, as the extension says)', async () => {
    const { harness, store } = await harnessWithTasks();
    const res = await statelessCall(harness, TASKS);
    const created = (await res.json()) as { result: { resultType: string } };
    assert.equal(created.result.resultType, 'task');
    assertSourceProgress(await sourceProgress(store, harness));
  });
});
