/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- response bodies are untyped wire JSON; the assertions check their shape */
/** The tool lifecycle: wrapTool policy, ToolError results, timeouts and telemetry without arguments. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToolError, wrapTool } from '../../../lambda/mcp/index.js';
import type { ToolTelemetryEvent } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, post, readJson, rpc } from './helpers.js';

class QuotaExceededError extends Error {
  constructor() {
    super('quota exceeded for tenant 123');
    this.name = 'QuotaExceededError';
  }
}

async function callTool(
  server: ReturnType<typeof makeServer>,
  session: string,
  name: string,
  args?: unknown,
) {
  return (
    await readJson(
      await server.handle(post(rpc(1, 'tools/call', { name, arguments: args }), inSession(session))),
    )
  ).body;
}

describe('tool lifecycle', () => {
  it('turns an exposed ToolError into an isError result carrying its safe message', async () => {
    const server = makeServer();
    server.registerTool({ name: 'deny', inputSchema: { type: 'object' } }, () =>
      Promise.reject(new ToolError('Not allowed here')),
    );
    const session = await initialize(server);
    assert.deepEqual((await callTool(server, session, 'deny', {})).result, {
      content: [{ type: 'text', text: 'Not allowed here' }],
      isError: true,
    });
  });

  it('applies noArgs, strictJson and validate as -32602 with safe messages', async () => {
    const server = makeServer();
    const ok = () => Promise.resolve({ content: [] });
    server.registerTool(
      { name: 'none', inputSchema: { type: 'object' } },
      wrapTool({ name: 'none', noArgs: true }, ok),
    );
    server.registerTool(
      { name: 'strict', inputSchema: { type: 'object' } },
      wrapTool(
        {
          name: 'strict',
          strictJson: true,
          allowedKeys: ['q'],
          validate: (a) => (a.q === '' ? 'q must not be empty' : undefined),
        },
        ok,
      ),
    );
    const session = await initialize(server);
    assert.deepEqual((await callTool(server, session, 'none', {})).result, { content: [] });
    assert.equal((await callTool(server, session, 'none', { x: 1 })).error.code, -32602);
    assert.equal(
      (await callTool(server, session, 'strict', { q: 'a', extra: true })).error.message,
      'Invalid params: unknown argument',
    );
    assert.deepEqual((await callTool(server, session, 'strict', { q: '' })).error, {
      code: -32602,
      message: 'q must not be empty',
    });
  });

  it('maps expected product errors through handleError and times out with the safe timeout error', async () => {
    const server = makeServer();
    server.registerTool(
      { name: 'quota', inputSchema: { type: 'object' } },
      wrapTool(
        {
          name: 'quota',
          handleError: (e) =>
            e instanceof QuotaExceededError
              ? { content: [{ type: 'text', text: 'Try again later' }] }
              : undefined,
        },
        () => Promise.reject(new QuotaExceededError()),
      ),
    );
    server.registerTool(
      { name: 'slow', inputSchema: { type: 'object' } },
      wrapTool({ name: 'slow', timeoutMs: 20 }, () => new Promise(() => undefined)),
    );
    const session = await initialize(server);
    assert.deepEqual((await callTool(server, session, 'quota', {})).result, {
      content: [{ type: 'text', text: 'Try again later' }],
      isError: true,
    });
    assert.deepEqual((await callTool(server, session, 'slow', {})).error, {
      code: -32001,
      message: 'Request timed out',
    });
  });

  it('emits runtime telemetry with outcome and code but never arguments', async () => {
    const events: ToolTelemetryEvent[] = [];
    let now = 1000;
    const server = makeServer({ telemetry: (e) => events.push(e), clock: () => (now += 5) });
    server.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () =>
      Promise.resolve({ content: [] }),
    );
    server.registerTool({ name: 'fail', inputSchema: { type: 'object' } }, () =>
      Promise.reject(new Error('token=abc')),
    );
    const session = await initialize(server);
    await callTool(server, session, 'echo', { password: 'hunter2' });
    await callTool(server, session, 'fail', {});
    assert.deepEqual(
      events.map((e) => [e.name, e.phase, e.outcome, e.jsonRpcCode]),
      [
        ['echo', 'start', undefined, undefined],
        ['echo', 'finish', 'ok', undefined],
        ['fail', 'start', undefined, undefined],
        ['fail', 'finish', 'internal_error', -32603],
      ],
    );
    assert.equal(events[1]?.durationMs, 5);
    assert.doesNotMatch(JSON.stringify(events), /hunter2|token=abc/);
  });

  it('lets wrapTool report its own telemetry with the injected clock', async () => {
    const events: ToolTelemetryEvent[] = [];
    const handler = wrapTool({ name: 'w', telemetry: (e) => events.push(e), clock: () => 42 }, () =>
      Promise.resolve({ content: [], isError: true }),
    );
    const ctx = { signal: new AbortController().signal } as Parameters<typeof handler>[1];
    await handler({}, ctx);
    assert.deepEqual(events[1], {
      name: 'w',
      phase: 'finish',
      startedAt: 42,
      finishedAt: 42,
      durationMs: 0,
      outcome: 'tool_error',
      isError: true,
    });
  });
});
