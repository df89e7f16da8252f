/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * Keys a client chooses (session ids, task ids, task-list cursors, event ids) follow one rule: each is
 * bounded and checked against its form before any store sees it, and one that fails is answered exactly like
 * an unknown key (404 for a session or an event, -32602 for a task), never as a server fault.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  InMemorySessionStore,
  InMemoryStreamStore,
  InMemoryTaskStore,
  clientKeyRules,
  isClientKey,
  tasksExtension,
} from '../../../lambda/mcp/index.js';
import type { SessionStore, StreamStore, TaskStore } from '../../../lambda/mcp/index.js';
import { initialize, inSession, makeServer, post, readJson, rpc } from '../mcp/helpers.js';
import { modernMeta, modernPost } from '../mcp/stateless/helpers.js';

/** A store whose every method call is recorded (by method and first argument's length). */
function recorded<T extends object>(store: T): { store: T; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(
          `${String(property)}(${args.map((a) => (typeof a === 'string' ? a.length : '…')).join(',')})`,
        );
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

const longKey = (n: number) => 'a'.repeat(n);

describe('the client-key rule', () => {
  it('accepts the ids the runtime mints and refuses over-long, empty, control and non-string keys', () => {
    for (const kind of Object.keys(clientKeyRules) as (keyof typeof clientKeyRules)[]) {
      assert.equal(isClientKey(kind, '0123456789abcdef0123456789abcdef'), true, kind);
      assert.equal(isClientKey(kind, longKey(1025)), false, kind);
      assert.equal(isClientKey(kind, longKey(clientKeyRules[kind].maxLength + 1)), false, kind);
      assert.equal(isClientKey(kind, ''), false, kind);
      assert.equal(isClientKey(kind, 'a\u0000b'), false, kind);
      assert.equal(isClientKey(kind, 'a\nb'), false, kind);
      assert.equal(isClientKey(kind, 12), false, kind);
    }
  });
});

describe('over-long session ids', () => {
  it('POST, GET and DELETE with a 2,049-byte Mcp-Session-Id answer 404 and never reach the store', async () => {
    const { store, calls } = recorded<SessionStore>(new InMemorySessionStore());
    const server = makeServer({ sessionStore: store });
    const headers = inSession(longKey(2049));
    const answers = [
      await server.handle(post(rpc(1, 'tools/list'), headers)),
      await server.handle(
        new Request('http://localhost/mcp', {
          method: 'GET',
          headers: { ...headers, accept: 'text/event-stream' },
        }),
      ),
      await server.handle(new Request('http://localhost/mcp', { method: 'DELETE', headers })),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [404, 404, 404],
    );
    assert.deepEqual(calls, []);
  });

  it('a Last-Event-ID that cannot be an event id answers 404 without a stream-store read', async () => {
    const { store, calls } = recorded<StreamStore>(new InMemoryStreamStore());
    const server = makeServer({ streamStore: store });
    const sessionId = await initialize(server);
    const res = await server.handle(
      new Request('http://localhost/mcp', {
        method: 'GET',
        headers: { ...inSession(sessionId), accept: 'text/event-stream', 'last-event-id': longKey(5000) },
      }),
    );
    assert.equal(res.status, 404);
    assert.deepEqual(
      calls.filter((call) => call.startsWith('streamOf')),
      [],
    );
  });
});

describe('over-long task ids', () => {
  const TASKS = tasksExtension;

  function taskServer() {
    const recorder = recorded<TaskStore>(new InMemoryTaskStore());
    const server = makeServer({ tasks: { store: recorder.store } });
    server.registerTool(
      { name: 'slow', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
      () => Promise.resolve({ content: [] }),
    );
    return { server, calls: recorder.calls };
  }

  it('a 1,025-character taskId is -32602 unknown task in the 2025-11-25 shape, with no store call', async () => {
    const { server, calls } = taskServer();
    const sessionId = await initialize(server, {
      protocolVersion: '2025-11-25',
      capabilities: { tasks: {} },
    });
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const res = await readJson(
        await server.handle(post(rpc(1, method, { taskId: longKey(1025) }), inSession(sessionId))),
      );
      assert.equal(res.status, 200, method);
      assert.equal(res.body.error.code, -32602, method);
      assert.match(String(res.body.error.message), /unknown or expired taskId/, method);
    }
    const listed = await readJson(
      await server.handle(post(rpc(1, 'tasks/list', { cursor: longKey(1025) }), inSession(sessionId))),
    );
    assert.equal(listed.body.error.code, -32602);
    assert.deepEqual(calls, []);
  });

  it('a 1,025-character taskId is -32602 unknown task in the 2026-07-28 shape, with no store call', async () => {
    const { server, calls } = taskServer();
    const meta = modernMeta({
      'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
    });
    const taskId = longKey(1025);
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const res = await readJson(
        await server.handle(modernPost(1, method, { taskId, _meta: meta }, { 'mcp-name': taskId })),
      );
      assert.equal(res.body.error.code, -32602, method);
    }
    assert.deepEqual(calls, []);
  });
});
