/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON */
/**
 * MCP tasks on the whole local stack, as clients and operators meet them: another principal's task is
 * answered exactly like an unknown id by every task method in both protocol shapes; a task store that
 * does not answer gives the documented 503 with `Retry-After`, and nothing acknowledged is lost once it
 * answers again; the official SDK client runs a 2025-11-25 task-augmented call of a BOS tool.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { javaSuite } from '../helpers/java.js';
import {
  OPT_IN_KEY,
  openSession,
  post,
  postStateless,
  startBosStack,
  statelessMeta,
} from '../helpers/bos-stack.js';
import type { BosStack } from '../helpers/bos-stack.js';

const args = {
  context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
  tool_name: 'search_people',
  arguments: { query: 'a' },
};
const TASKS = 'io.modelcontextprotocol/tasks';
/** 2026-07-28 `_meta` of a client that declared the tasks extension. */
const taskMeta = { ...statelessMeta(), [OPT_IN_KEY]: { extensions: { [TASKS]: {} } } };
const unknownId = (): string => randomBytes(16).toString('hex');

describe('MCP tasks on the local stack: binding, outage, SDK client', javaSuite(300_000), () => {
  let bos: BosStack;

  const session = async (user: 'dev-user' | 'outsider') => {
    const token = bos.token(user);
    const { sessionId } = await openSession(bos.url, token, { tasks: {} });
    /** One request with a fixed JSON-RPC id, so two answers can be compared byte for byte. */
    return async (method: string, params: Record<string, unknown>) => {
      const response = await post(bos.url, {
        token,
        sessionId,
        body: { jsonrpc: '2.0', id: 7, method, params },
      });
      return { status: response.status, text: await response.text() };
    };
  };
  const stateless = (user: 'dev-user' | 'outsider') => {
    const token = bos.token(user);
    return async (method: string, params: Record<string, unknown>, name?: string) => {
      const response = await postStateless(bos.url, {
        token,
        headers: name === undefined ? {} : { 'Mcp-Name': name },
        body: { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: taskMeta } },
      });
      return { status: response.status, text: await response.text(), headers: response.headers };
    };
  };
  const waitDone = async (get: () => Promise<{ text: string }>): Promise<any> => {
    for (let i = 0; i < 600; i += 1) {
      const body = JSON.parse((await get()).text);
      if (body.result?.status !== 'working') return body;
      await sleep(100);
    }
    throw new Error('task did not end');
  };

  before(async () => {
    bos = await startBosStack({ name: 'task-evidence', poolSize: 2 });
  });
  after(async () => {
    await bos?.close();
  });

  it('answers another principal exactly like an unknown id in the 2025-11-25 shape', async () => {
    const owner = await session('dev-user');
    const other = await session('outsider');
    const created = JSON.parse(
      (await owner('tools/call', { name: 'bos_execute', arguments: args, task: {} })).text,
    );
    const taskId = created.result.task.taskId as string;
    const unknown = unknownId();
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/update']) {
      const theirs = await other(method, { taskId });
      assert.deepEqual(theirs, await other(method, { taskId: unknown }), method);
      assert.match(theirs.text, /"code":-326(02|01)/, method);
    }
    assert.deepEqual(
      await other('tasks/list', { cursor: taskId }),
      await other('tasks/list', { cursor: unknown }),
    );
    const listed = JSON.parse((await other('tasks/list', {})).text);
    assert.deepEqual(listed.result.tasks, []);
    const mine = await waitDone(() => owner('tasks/get', { taskId }));
    assert.equal(mine.result.status, 'completed', 'the other principal’s cancel did not reach it');
  });

  it('answers another principal exactly like an unknown id in the 2026-07-28 shape', async () => {
    const owner = stateless('dev-user');
    const other = stateless('outsider');
    const created = JSON.parse(
      (await owner('tools/call', { name: 'bos_execute', arguments: args }, 'bos_execute')).text,
    );
    assert.equal(created.result.resultType, 'task', JSON.stringify(created).slice(0, 300));
    const taskId = created.result.taskId as string;
    const unknown = unknownId();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: {} }],
      ['tasks/cancel', {}],
      ['tasks/result', {}],
      ['tasks/list', {}],
    ];
    for (const [method, extra] of calls) {
      const theirs = await other(method, { taskId, ...extra }, taskId);
      const none = await other(method, { taskId: unknown, ...extra }, unknown);
      assert.equal(theirs.status, none.status, method);
      assert.equal(theirs.text, none.text, method);
    }
    const mine = await waitDone(() => owner('tasks/get', { taskId }, taskId));
    assert.equal(mine.result.status, 'completed');
  });

  it('answers 503 with Retry-After while DynamoDB Local does not answer, and loses nothing', async () => {
    const owner = stateless('dev-user');
    const created = JSON.parse(
      (await owner('tools/call', { name: 'bos_execute', arguments: args }, 'bos_execute')).text,
    );
    const taskId = created.result.taskId as string;
    const before = await waitDone(() => owner('tasks/get', { taskId }, taskId));
    const pid = bos.stack.dynamoDbLocal?.pid;
    assert.ok(pid !== undefined, 'the stack runs DynamoDB Local');
    process.kill(pid, 'SIGSTOP');
    try {
      const down = await owner('tasks/get', { taskId }, taskId);
      assert.equal(down.status, 503);
      assert.equal(down.headers.get('retry-after'), '1');
      assert.deepEqual(JSON.parse(down.text).error, { code: -32603, message: 'task store unavailable' });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const back = JSON.parse((await owner('tasks/get', { taskId }, taskId)).text);
    assert.deepEqual(back, before);
  });

  it('runs a BOS tool as a 2025-11-25 task with the official SDK client: created, polled, result', async () => {
    const client = new Client({ name: 'sdk-task-client', version: '0.0.1' });
    const transport = new StreamableHTTPClientTransport(new URL(bos.url), {
      requestInit: { headers: { Authorization: `Bearer ${bos.token('dev-user')}` } },
    });
    await client.connect(transport);
    const kinds: string[] = [];
    let result: unknown;
    const stream = client.experimental.tasks.callToolStream(
      { name: 'bos_execute', arguments: args },
      CallToolResultSchema,
      { task: {} },
    );
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') assert.fail(String(message.error));
    }
    await client.close();
    assert.equal(kinds[0], 'taskCreated');
    assert.ok(kinds.includes('taskStatus'));
    assert.equal(kinds.at(-1), 'result');
    const content = (result as { content?: unknown[]; isError?: boolean }).content;
    assert.ok(Array.isArray(content) && content.length > 0);
  });
});
