/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any -- response bodies are untyped wire JSON */
/** MCP 2025-11-25 tasks in the session-ful shape, through `McpServer.handle` on the in-memory store. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { InMemoryTaskStore } from '../../../../lambda/mcp/index.js';
import type { Logger, McpInvocationContext, McpServer } from '../../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, parseSse, post, readJson, rpc } from '../helpers.js';

const alice: McpInvocationContext = { principal: { subject: 'alice', scopes: [] } };
const bob: McpInvocationContext = { principal: { subject: 'bob', scopes: [] } };

function server(logger?: Logger): McpServer {
  const mcp = makeServer({
    tasks: { store: new InMemoryTaskStore(), cancelPollMs: 20, pollIntervalMs: 50 },
    ...(logger === undefined ? {} : { logger }),
  });
  const schema = { type: 'object', properties: { ms: { type: 'number' } } };
  mcp.registerTool(
    { name: 'echo', inputSchema: schema, execution: { taskSupport: 'optional' } },
    async (args, ctx) => {
      await sleep(typeof args.ms === 'number' ? args.ms : 0, undefined, { signal: ctx.signal });
      return { content: [{ type: 'text', text: 'done' }], structuredContent: { ms: args.ms ?? 0 } };
    },
  );
  mcp.registerTool({ name: 'must_task', inputSchema: schema, execution: { taskSupport: 'required' } }, () =>
    Promise.resolve({ content: [] }),
  );
  mcp.registerTool({ name: 'plain', inputSchema: schema }, () => Promise.resolve({ content: [] }));
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
  return readJson(
    await mcp.handle(post(rpc(1, method, params), { ...inSession(sessionId), ...headers }), ctx),
  );
}

/** The response message of a JSON answer, or the last message of an SSE one. */
async function finalMessage(res: Response): Promise<{ body: any }> {
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return readJson(res);
  const events = parseSse(await res.text()).filter((block) => block.data !== undefined && block.data !== '');
  return { body: JSON.parse(events[events.length - 1]?.data ?? 'null') };
}

describe('2025-11-25 tasks in the session-ful shape', () => {
  it('advertises the tasks capability and runs a task-augmented call to its result', async () => {
    const mcp = server();
    const init = await readJson(
      await mcp.handle(
        post(rpc('init', 'initialize', { protocolVersion: '2025-11-25', capabilities: {} })),
        alice,
      ),
    );
    assert.deepEqual(init.body.result.capabilities.tasks, {
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const sessionId = await initialize(mcp, undefined, alice);
    const created = await send(mcp, sessionId, 'tools/call', {
      name: 'echo',
      arguments: { ms: 30 },
      task: { ttl: 60_000 },
    });
    const task = created.body.result.task;
    assert.equal(task.status, 'working');
    assert.equal(task.ttl, 60_000);
    assert.deepEqual(created.body.result._meta, {
      'io.modelcontextprotocol/related-task': { taskId: task.taskId },
    });
    // The task may still be working: the answer is then an SSE stream that ends with the result.
    const answer = await mcp.handle(
      post(rpc(1, 'tasks/result', { taskId: task.taskId }), inSession(sessionId)),
      alice,
    );
    const result = await finalMessage(answer);
    assert.deepEqual(result.body.result, {
      content: [{ type: 'text', text: 'done' }],
      structuredContent: { ms: 30 },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } },
    });
    assert.equal(
      (await send(mcp, sessionId, 'tasks/get', { taskId: task.taskId })).body.result.status,
      'completed',
    );
    const listed = await send(mcp, sessionId, 'tasks/list', {});
    assert.deepEqual(
      listed.body.result.tasks.map((t: { taskId: string }) => t.taskId),
      [task.taskId],
    );
    const cancel = await send(mcp, sessionId, 'tasks/cancel', { taskId: task.taskId });
    assert.equal(cancel.body.error.code, -32602);
    await mcp.settled();
  });

  it('enforces taskSupport: forbidden as a task and required without one are -32601', async () => {
    const mcp = server();
    const sessionId = await initialize(mcp, undefined, alice);
    const forbidden = await send(mcp, sessionId, 'tools/call', { name: 'plain', arguments: {}, task: {} });
    assert.equal(forbidden.body.error.code, -32601);
    const required = await send(mcp, sessionId, 'tools/call', { name: 'must_task', arguments: {} });
    assert.equal(required.body.error.code, -32601);
  });

  it('refuses a ttl above the cap with a clear error', async () => {
    const mcp = server();
    const sessionId = await initialize(mcp, undefined, alice);
    const refused = await send(mcp, sessionId, 'tools/call', {
      name: 'echo',
      arguments: {},
      task: { ttl: 86_400_000 },
    });
    assert.equal(refused.body.error.code, -32602);
    assert.match(refused.body.error.message, /task ttl exceeds the maximum of 3600000 ms/);
  });

  it('ends the running tool of a cancelled task as a cancellation, not as a failed tool', async () => {
    const lines: Array<[string, string]> = [];
    const record =
      (level: string) =>
      (message: string): void =>
        void lines.push([level, message]);
    const logger: Logger = {
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    };
    const mcp = server(logger);
    const session = await initialize(mcp, undefined, alice);
    const created = await send(mcp, session, 'tools/call', {
      name: 'echo',
      arguments: { ms: 5000 },
      task: {},
    });
    const taskId = created.body.result.task.taskId as string;
    await sleep(50);
    const cancelled = await send(mcp, session, 'tasks/cancel', { taskId });
    assert.equal(cancelled.body.result.status, 'cancelled');
    await mcp.settled();
    assert.deepEqual(
      lines.filter(([level]) => level === 'error' || level === 'warn'),
      [],
    );
    assert.equal((await send(mcp, session, 'tasks/get', { taskId })).body.result.status, 'cancelled');
  });

  it('hides a task from another principal and from another session of the same principal', async () => {
    const mcp = server();
    const mine = await initialize(mcp, undefined, alice);
    const created = await send(mcp, mine, 'tools/call', { name: 'echo', arguments: { ms: 5000 }, task: {} });
    const taskId = created.body.result.task.taskId as string;
    const theirs = await initialize(mcp, undefined, bob);
    const other = await initialize(mcp, undefined, alice);
    for (const [session, ctx] of [
      [theirs, bob],
      [other, alice],
    ] as const) {
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
        const foreign = await send(mcp, session, method, { taskId }, ctx);
        const unknown = await send(mcp, session, method, { taskId: '0'.repeat(32) }, ctx);
        assert.deepEqual(foreign.body, unknown.body, method);
      }
      assert.deepEqual((await send(mcp, session, 'tasks/list', {}, ctx)).body.result.tasks, []);
    }
    const cancelled = await send(mcp, mine, 'tasks/cancel', { taskId });
    assert.equal(cancelled.body.result.status, 'cancelled');
    await mcp.settled();
  });
});
