/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- response bodies are untyped wire JSON */
/**
 * `notifications/tasks/status` (2025-11-25) on the SSE answer of `tasks/result`, through `McpServer.handle`
 * on the in-memory task store: the status as the stream opens, each change while it waits, then the result.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { createParser } from 'eventsource-parser';
import { InMemoryTaskStore } from '../../../../lambda/mcp/index.js';
import type { McpInvocationContext, McpServer } from '../../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, post, readJson, rpc } from '../helpers.js';

const alice: McpInvocationContext = { principal: { subject: 'alice', scopes: [] } };
const bob: McpInvocationContext = { principal: { subject: 'bob', scopes: [] } };
const related = 'io.modelcontextprotocol/related-task';

/** A gate the test opens to let the tool take its next step. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** A server whose `sources` tool reports "1 of 2", waits for `first`, reports "2 of 2", waits for `second`. */
function server(first: Promise<void>, second: Promise<void>): McpServer {
  const mcp = makeServer({ tasks: { store: new InMemoryTaskStore(), cancelPollMs: 20, pollIntervalMs: 20 } });
  mcp.registerStreamingTool(
    { name: 'sources', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      ctx.progress(1, 2, '1 of 2 sources complete');
      await first;
      ctx.progress(2, 2, '2 of 2 sources complete');
      await second;
      return { content: [{ type: 'text', text: 'merged' }] };
    },
  );
  return mcp;
}

async function send(
  mcp: McpServer,
  sessionId: string,
  method: string,
  params: Record<string, unknown>,
  ctx = alice,
  headers: Record<string, string> = {},
) {
  return mcp.handle(post(rpc(7, method, params), { ...inSession(sessionId), ...headers }), ctx);
}

/** Polls `tasks/get` until the task satisfies `done`. */
async function waitFor(
  mcp: McpServer,
  sessionId: string,
  taskId: string,
  done: (task: any) => boolean,
  version = '2025-11-25',
): Promise<void> {
  for (;;) {
    const got = await readJson(
      await send(mcp, sessionId, 'tasks/get', { taskId }, alice, inSession(sessionId, version)),
    );
    if (done(got.body.result)) return;
    await sleep(10);
  }
}

/** Starts a task and waits until the store shows its first status message. */
async function startTask(mcp: McpServer, sessionId: string, version = '2025-11-25'): Promise<string> {
  const headers = inSession(sessionId, version);
  const created = await readJson(
    await send(mcp, sessionId, 'tools/call', { name: 'sources', task: {} }, alice, headers),
  );
  const taskId = created.body.result.task.taskId as string;
  await waitFor(mcp, sessionId, taskId, (task) => task.statusMessage === '1 of 2 sources complete', version);
  return taskId;
}

/** Reads JSON-RPC messages off an SSE body as they arrive. */
function messages(body: ReadableStream<Uint8Array>): () => Promise<any> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const queue: unknown[] = [];
  const parser = createParser({ onEvent: ({ data }) => queue.push(JSON.parse(data)) });
  return async () => {
    while (queue.length === 0) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error('stream ended early');
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
    return queue.shift();
  };
}

describe('notifications/tasks/status on the tasks/result stream', () => {
  it(
    'sends each status change in order, then the result, to a client that accepts SSE',
    { timeout: 20_000 },
    async () => {
      const [first, second] = [gate(), gate()];
      const mcp = server(first.wait, second.wait);
      const sessionId = await initialize(mcp, undefined, alice);
      const taskId = await startTask(mcp, sessionId);
      const res = await send(mcp, sessionId, 'tasks/result', { taskId });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.ok(res.body);
      const next = messages(res.body);

      const opened = await next();
      assert.equal(opened.method, 'notifications/tasks/status');
      assert.equal(opened.id, undefined);
      assert.equal(opened.params.taskId, taskId);
      assert.equal(opened.params.status, 'working');
      assert.equal(opened.params.statusMessage, '1 of 2 sources complete');
      assert.deepEqual(Object.keys(opened.params as object).sort(), [
        '_meta',
        'createdAt',
        'lastUpdatedAt',
        'pollInterval',
        'status',
        'statusMessage',
        'taskId',
        'ttl',
      ]);
      assert.deepEqual(opened.params._meta, { [related]: { taskId } });
      const get = await readJson(await send(mcp, sessionId, 'tasks/get', { taskId }));
      const { _meta, ...task } = opened.params;
      assert.deepEqual(task, get.body.result);

      first.open();
      const halfway = await next();
      assert.equal(halfway.method, 'notifications/tasks/status');
      assert.equal(halfway.params.statusMessage, '2 of 2 sources complete');
      assert.equal(halfway.params.status, 'working');

      second.open();
      const done = await next();
      assert.equal(done.method, 'notifications/tasks/status');
      assert.equal(done.params.status, 'completed');
      const final = await next();
      assert.equal(final.id, 7);
      assert.deepEqual(final.result, {
        content: [{ type: 'text', text: 'merged' }],
        _meta: { [related]: { taskId } },
      });
      await mcp.settled();
    },
  );

  it(
    'answers with plain JSON and no notifications where nothing is left to wait for or the session predates them',
    { timeout: 20_000 },
    async () => {
      const [first, second] = [gate(), gate()];
      const mcp = server(first.wait, second.wait);
      const older = await initialize(mcp, { protocolVersion: '2025-06-18' }, alice);
      const olderTask = await startTask(mcp, older, '2025-06-18');
      const answer = send(
        mcp,
        older,
        'tasks/result',
        { taskId: olderTask },
        alice,
        inSession(older, '2025-06-18'),
      );
      first.open();
      second.open();
      const res = await answer;
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const { body } = await readJson(res);
      assert.deepEqual(Object.keys(body as object).sort(), ['id', 'jsonrpc', 'result']);
      assert.deepEqual(body.result._meta, { [related]: { taskId: olderTask } });

      const current = await initialize(mcp, undefined, alice);
      const done = await readJson(await send(mcp, current, 'tools/call', { name: 'sources', task: {} }));
      const taskId = done.body.result.task.taskId as string;
      await waitFor(mcp, current, taskId, (task) => task.status === 'completed');
      const terminal = await send(mcp, current, 'tasks/result', { taskId });
      assert.match(terminal.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual((await readJson(terminal)).body.result._meta, { [related]: { taskId } });
      await mcp.settled();
    },
  );

  it(
    'ends the stream with the cancelled status and the error when the task is cancelled while it waits',
    { timeout: 20_000 },
    async () => {
      const [first, second] = [gate(), gate()];
      const mcp = server(first.wait, second.wait);
      const sessionId = await initialize(mcp, undefined, alice);
      const taskId = await startTask(mcp, sessionId);
      const res = await send(mcp, sessionId, 'tasks/result', { taskId });
      assert.ok(res.body);
      const next = messages(res.body);
      assert.equal((await next()).params.status, 'working');
      const cancelled = await readJson(await send(mcp, sessionId, 'tasks/cancel', { taskId }));
      assert.equal(cancelled.body.result.status, 'cancelled');
      const status = await next();
      assert.equal(status.method, 'notifications/tasks/status');
      assert.equal(status.params.status, 'cancelled');
      const final = await next();
      assert.equal(final.id, 7);
      assert.equal(final.error.code, -32602);
      assert.deepEqual(final.error.data, { [related]: { taskId } });
      first.open();
      second.open();
      await mcp.settled();
    },
  );

  it(
    'answers another principal with the unknown-id error and opens no stream',
    { timeout: 20_000 },
    async () => {
      const [first, second] = [gate(), gate()];
      const mcp = server(first.wait, second.wait);
      const sessionId = await initialize(mcp, undefined, alice);
      const taskId = await startTask(mcp, sessionId);
      const theirs = await initialize(mcp, undefined, bob);
      const foreign = await send(mcp, theirs, 'tasks/result', { taskId }, bob);
      assert.match(foreign.headers.get('content-type') ?? '', /^application\/json/);
      const unknown = await send(mcp, theirs, 'tasks/result', { taskId: '0'.repeat(32) }, bob);
      const [foreignBody, unknownBody] = [(await readJson(foreign)).body, (await readJson(unknown)).body];
      assert.equal(foreignBody.error.code, -32602);
      assert.deepEqual(foreignBody, unknownBody);
      first.open();
      second.open();
      await mcp.settled();
    },
  );
});
