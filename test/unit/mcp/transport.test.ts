/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped wire JSON; the assertions check their shape */
/** Transport order, media types, shape routing, batches and JSON-RPC framing. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptsMediaType, detectShape, parseAccept, parseMediaType } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, post, readJson, rpc } from './helpers.js';

describe('media types', () => {
  it('parses types, parameters and weights instead of matching substrings', () => {
    assert.deepEqual(parseMediaType('Application/JSON; Charset="UTF-8"'), {
      type: 'application',
      subtype: 'json',
      params: Object.assign(Object.create(null), { charset: 'UTF-8' }),
    });
    assert.equal(parseMediaType('application'), undefined);
    const ranges = parseAccept('text/html;q=0.9, application/json;q=0, text/*');
    assert.equal(acceptsMediaType(ranges, 'application/json'), false);
    assert.equal(acceptsMediaType(ranges, 'text/event-stream'), true);
    assert.equal(acceptsMediaType(parseAccept('*/*'), 'application/json'), true);
  });
});

describe('transport checks', () => {
  it('answers other HTTP methods with 405 and an Allow header', async () => {
    const res = await makeServer().handle(new Request('http://localhost/mcp', { method: 'PUT', body: '{}' }));
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, POST, DELETE');
  });

  it('checks the Origin before anything else and honours a configured allowlist', async () => {
    const server = makeServer({ allowedOrigins: ['https://app.example'] });
    const foreign = await server.handle(
      post('not json', { origin: 'https://claude.ai', 'content-type': 'text/plain' }),
    );
    assert.equal(foreign.status, 403);
    const allowed = await server.handle(post(rpc(1, 'server/discover'), { origin: 'https://app.example' }));
    assert.equal(allowed.status, 200);
  });

  it('accepts a charset parameter and wildcard Accept ranges', async () => {
    const res = await makeServer().handle(
      post(rpc(1, 'server/discover'), { 'content-type': 'application/json; charset=utf-8', accept: '*/*' }),
    );
    assert.equal(res.status, 200);
  });

  it('echoes the adapter request id as x-request-id', async () => {
    const res = await makeServer().handle(post(rpc(1, 'server/discover')), { requestId: 'req-9' });
    assert.equal(res.headers.get('x-request-id'), 'req-9');
  });
});

describe('protocol shape', () => {
  it('routes by the protocol header first and fails closed on conflicts and unknown versions', () => {
    const h = (v?: string) => new Headers(v === undefined ? {} : { 'mcp-protocol-version': v });
    const meta = (v: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': v } },
    });
    assert.equal(detectShape(h('2026-07-28')).shape, 'stateless');
    assert.deepEqual(detectShape(h('2025-06-18')), { shape: 'sessionful', headerVersion: '2025-06-18' });
    assert.deepEqual(detectShape(h()), { shape: 'sessionful', headerVersion: undefined });
    const conflict = detectShape(h('2026-07-28, 2025-11-25'));
    assert.equal(conflict.shape === 'error' && conflict.error.code, -32020);
    const missing = detectShape(h(), meta('2026-07-28'));
    assert.equal(
      missing.shape === 'error' && missing.error.message,
      'Header mismatch: missing required MCP-Protocol-Version header',
    );
    const future = detectShape(h('2099-01-01'));
    assert.equal(future.shape === 'error' && future.error.code, -32022);
    const mismatch = detectShape(h('2025-11-25'), meta('2026-07-28'));
    assert.equal(mismatch.shape === 'error' && mismatch.error.code, -32020);
  });

  it('routes 2026-07-28 POSTs through the stateless shape even with a live session', async () => {
    const server = makeServer();
    const session = await initialize(server);
    // `ping` does not exist in 2026-07-28, so reaching the stateless dispatcher means 404 / -32601.
    const body = rpc(1, 'ping', {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    });
    const headers = { ...inSession(session, '2026-07-28'), 'mcp-method': 'ping' };
    const res = await readJson(await server.handle(post(body, headers)));
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, -32601);
    const get = await server.handle(
      new Request('http://localhost/mcp', {
        headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' },
      }),
    );
    assert.equal(get.status, 405);
  });
});

describe('JSON-RPC framing', () => {
  it('answers a null id with the pinned parse error and accepts posted client responses with 202', async () => {
    const server = makeServer();
    const nullId = await readJson(await server.handle(post({ jsonrpc: '2.0', id: null, method: 'ping' })));
    assert.deepEqual(nullId.body, {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: id must not be null' },
    });
    const session = await initialize(server);
    const response = await server.handle(
      post({ jsonrpc: '2.0', id: 'srv-404', result: {} }, inSession(session)),
    );
    assert.equal(response.status, 202);
  });

  it('serves batches on 2025-03-26 sessions, refusing initialize inside them', async () => {
    const server = makeServer();
    const session = await initialize(server, { protocolVersion: '2025-03-26' });
    const res = await readJson(
      await server.handle(
        post(
          [rpc(1, 'ping'), { jsonrpc: '2.0', method: 'notifications/initialized' }, rpc(2, 'initialize', {})],
          { 'mcp-session-id': session },
        ),
      ),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      { jsonrpc: '2.0', id: 1, result: {} },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32600, message: 'Invalid Request: initialize must not be batched' },
      },
    ]);
  });
});
