/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped wire JSON */
/**
 * 2026-07-28 request validation: the order and the exact status/code pairs of mcp-method-surface
 * "2026-07-28 protocol errors" and mcp-2026-notes §1.3–§1.4.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { initialize, inSession, makeServer, post, readJson } from '../helpers.js';
import { modernMeta, modernPost, sentinel } from './helpers.js';
import type { McpServer } from '../../../../lambda/mcp/index.js';

function echoServer(): McpServer {
  const server = makeServer();
  server.registerTool(
    {
      name: 'echo',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string' }, region: { type: 'string', 'x-mcp-header': 'Region' } },
      },
    },
    (args) =>
      Promise.resolve({
        content: [{ type: 'text', text: typeof args.message === 'string' ? args.message : '' }],
      }),
  );
  return server;
}

async function answer(
  server: McpServer,
  request: Request,
): Promise<{ status: number; code?: number; message?: string }> {
  const res = await readJson(await server.handle(request));
  return { status: res.status, code: res.body?.error?.code, message: res.body?.error?.message };
}

describe('stateless validation order', () => {
  it('fails closed on header problems with -32020 and on unknown versions with -32022', async () => {
    const server = echoServer();
    const mismatch = await answer(
      server,
      modernPost(1, 'tools/list', {
        _meta: modernMeta({ 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
      }),
    );
    assert.deepEqual(mismatch, {
      status: 400,
      code: -32020,
      message: 'Header mismatch: MCP-Protocol-Version does not match request metadata',
    });
    const future = await readJson(
      await server.handle(modernPost(2, 'tools/list', {}, { 'mcp-protocol-version': '2099-01-01' })),
    );
    assert.equal(future.status, 400);
    assert.deepEqual(future.body.error.data, {
      supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      requested: '2099-01-01',
    });
    const conflict = await answer(
      server,
      modernPost(3, 'tools/list', {}, { 'mcp-protocol-version': '2026-07-28, 2025-11-25' }),
    );
    assert.deepEqual([conflict.status, conflict.code], [400, -32020]);
  });

  it('checks Mcp-Method before the required _meta keys, each with its own code', async () => {
    const server = echoServer();
    const noMethodNoMeta = await answer(
      server,
      modernPost(1, 'tools/list', { _meta: {} }, { 'mcp-method': undefined }),
    );
    assert.deepEqual(noMethodNoMeta, {
      status: 400,
      code: -32020,
      message: 'Header mismatch: missing required Mcp-Method header',
    });
    const caseMismatch = await answer(
      server,
      modernPost(2, 'tools/list', {}, { 'mcp-method': 'TOOLS/LIST' }),
    );
    assert.deepEqual([caseMismatch.status, caseMismatch.code], [400, -32020]);
    const noMeta = await answer(
      server,
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      }),
    );
    assert.deepEqual(noMeta, {
      status: 400,
      code: -32602,
      message: 'Invalid params: missing or invalid io.modelcontextprotocol/protocolVersion',
    });
    const badCaps = await answer(
      server,
      modernPost(4, 'tools/list', {
        _meta: modernMeta({ 'io.modelcontextprotocol/clientCapabilities': 'all' }),
      }),
    );
    assert.deepEqual([badCaps.status, badCaps.code], [400, -32602]);
  });

  it('answers a missing or non-string body name with -32602 before looking at Mcp-Name', async () => {
    const server = echoServer();
    const missing = await answer(
      server,
      modernPost(1, 'tools/call', { arguments: {} }, { 'mcp-name': 'echo' }),
    );
    assert.deepEqual(missing, { status: 400, code: -32602, message: 'Invalid params: name is required' });
    const numeric = await answer(server, modernPost(2, 'tools/call', { name: 7 }, { 'mcp-name': '7' }));
    assert.deepEqual([numeric.status, numeric.code], [400, -32602]);
  });

  it('decodes the Base64 sentinel and refuses non-canonical Base64 and invalid UTF-8 inside it', async () => {
    const server = echoServer();
    const ok = await readJson(
      await server.handle(
        modernPost(
          1,
          'tools/call',
          { name: 'echo', arguments: { message: 'hi' } },
          { 'mcp-name': sentinel('echo') },
        ),
      ),
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.body.result.resultType, 'complete');
    // "ZWNobx==" decodes to "echo" leniently but is not canonical (the last char carries stray bits).
    for (const header of ['=?base64?ZWNobx==?=', '=?base64?/w==?=', '=?base64?ZWNobw?=']) {
      const bad = await answer(
        server,
        modernPost(2, 'tools/call', { name: 'echo', arguments: {} }, { 'mcp-name': header }),
      );
      assert.deepEqual(
        bad,
        { status: 400, code: -32020, message: 'Header mismatch: malformed Mcp-Name Base64 encoding' },
        header,
      );
    }
    const conflicting = await answer(
      server,
      modernPost(3, 'tools/call', { name: 'echo', arguments: {} }, { 'mcp-name': 'echo, other' }),
    );
    assert.deepEqual([conflicting.status, conflicting.code], [400, -32020]);
  });

  it('checks Mcp-Param headers against x-mcp-header arguments', async () => {
    const server = echoServer();
    const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
      answer(server, modernPost(1, 'tools/call', { name: 'echo', arguments: args }, headers));
    assert.equal((await call({ region: 'eu' }, { 'mcp-param-region': 'eu' })).status, 200);
    assert.equal((await call({ region: 'Région' }, { 'mcp-param-region': sentinel('Région') })).status, 200);
    assert.deepEqual(await call({ region: 'eu' }, {}), {
      status: 400,
      code: -32020,
      message: 'Header mismatch: missing required Mcp-Param-Region header',
    });
    assert.equal((await call({ region: 'eu' }, { 'mcp-param-region': 'us' })).code, -32020);
    assert.equal((await call({}, { 'mcp-param-region': 'us' })).code, -32020);
    assert.equal(
      (await call({ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' })).code,
      -32020,
    );
  });

  it('maps removed and unknown methods to 404 / -32601 and task-augmented calls too', async () => {
    const server = echoServer();
    for (const method of [
      'ping',
      'logging/setLevel',
      'initialize',
      'tasks/get',
      'resources/subscribe',
      'subscriptions/listen',
      'x/unknown',
    ]) {
      assert.deepEqual(await answer(server, modernPost(1, method)), {
        status: 404,
        code: -32601,
        message: `Method not found: ${method}`,
      });
    }
    const task = await answer(server, modernPost(2, 'tools/call', { name: 'echo', arguments: {}, task: {} }));
    assert.deepEqual([task.status, task.code], [404, -32601]);
  });

  it('answers methods named like Object.prototype members with 404 / -32601, never runtime text', async () => {
    const server = echoServer();
    for (const method of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      assert.deepEqual(await answer(server, modernPost(1, method)), {
        status: 404,
        code: -32601,
        message: `Method not found: ${method}`,
      });
    }
  });

  it('accepts notifications with 202, refuses posted responses with 400 and GET/DELETE with 405', async () => {
    const server = echoServer();
    const note = await server.handle(modernPost(undefined, 'notifications/initialized'));
    assert.equal(note.status, 202);
    const response = await server.handle(
      post(
        { jsonrpc: '2.0', id: 1, result: {} },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'x' },
      ),
    );
    assert.equal(response.status, 400);
    for (const method of ['GET', 'DELETE']) {
      const res = await server.handle(
        new Request('http://localhost/mcp', {
          method,
          headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' },
        }),
      );
      assert.equal(res.status, 405, method);
    }
  });

  it('ignores Mcp-Session-Id, live or not, and never mints one', async () => {
    const server = echoServer();
    const session = await initialize(server);
    for (const id of [session, 'no-such-session']) {
      const res = await server.handle(modernPost(1, 'tools/list', {}, { 'mcp-session-id': id }));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('mcp-session-id'), null);
    }
    // The live session still works in its own shape.
    const legacy = await readJson(
      await server.handle(post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, inSession(session))),
    );
    assert.equal(legacy.status, 200);
    assert.equal(legacy.body.result.resultType, undefined);
  });
});
