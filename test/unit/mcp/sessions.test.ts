/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON; the assertions check their shape */
/** Sessions: initialize and negotiation, lifecycle, expiry, principal binding and store outages. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemorySessionStore, SessionStoreUnavailableError } from '../../../lambda/mcp/index.js';
import type { SessionRecord, SessionStore } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, manualClock, post, readJson, rpc } from './helpers.js';

const alice = { subject: 'alice', scopes: [] };
const bob = { subject: 'bob', scopes: [] };

describe('initialize', () => {
  it('negotiates each session-ful version and counter-proposes the latest for unknown ones', async () => {
    const server = makeServer();
    for (const [asked, agreed] of [
      ['2025-11-25', '2025-11-25'],
      ['2025-06-18', '2025-06-18'],
      ['2025-03-26', '2025-03-26'],
      ['2024-01-01', '2025-11-25'],
      ['2026-07-28', '2025-11-25'],
    ]) {
      const res = await readJson(await server.handle(post(rpc(1, 'initialize', { protocolVersion: asked }))));
      assert.equal(res.body.result.protocolVersion, agreed, `asked ${asked}`);
      assert.deepEqual(res.body.result.serverInfo, { name: 'test-server', version: '1.0.0' });
      assert.equal('resultType' in res.body.result, false);
    }
  });

  it('mints 128-bit visible-ASCII session ids that differ per session', async () => {
    const server = makeServer();
    const a = await initialize(server);
    const b = await initialize(server);
    assert.match(a, /^[0-9a-f]{32}$/);
    assert.notEqual(a, b);
  });

  it('persists initialized: "true" on notifications/initialized and answers 202 without a body', async () => {
    const store = new InMemorySessionStore();
    const server = makeServer({ sessionStore: store, newSessionId: () => 'sess-1' });
    await initialize(server);
    const res = await server.handle(
      post({ jsonrpc: '2.0', method: 'notifications/initialized' }, inSession('sess-1')),
    );
    assert.equal(res.status, 202);
    assert.equal(await res.text(), '');
    assert.equal((await store.get('sess-1'))?.data.initialized, 'true');
  });

  it('serves server/discover before initialize with all supported versions and server info', async () => {
    const server = makeServer();
    const res = await readJson(await server.handle(post(rpc('d', 'server/discover', {}))));
    assert.deepEqual(res.body.result, {
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      capabilities: {},
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'test-server', version: '1.0.0' } },
    });
  });
});

describe('session lifecycle', () => {
  it('deletes the session on DELETE (202) and answers 404 afterwards', async () => {
    const server = makeServer();
    const session = await initialize(server);
    const del = await server.handle(
      new Request('http://localhost/mcp', { method: 'DELETE', headers: inSession(session) }),
    );
    assert.equal(del.status, 202);
    const after = await readJson(await server.handle(post(rpc(2, 'ping'), inSession(session))));
    assert.equal(after.status, 404);
    assert.deepEqual(after.body, { error: 'session not found' });
  });

  it('rejects a protocol header that disagrees with the session with 400, and uses the session version when absent', async () => {
    const server = makeServer();
    const session = await initialize(server, { protocolVersion: '2025-06-18' });
    const wrong = await server.handle(post(rpc(1, 'ping'), inSession(session, '2025-11-25')));
    assert.equal(wrong.status, 400);
    const absent = await readJson(await server.handle(post(rpc(2, 'ping'), { 'mcp-session-id': session })));
    assert.deepEqual(absent.body, { jsonrpc: '2.0', id: 2, result: {} });
  });

  it('keeps a used session alive by sliding its expiry and expires an idle one without reviving it', async () => {
    const clock = manualClock();
    const store = new InMemorySessionStore();
    const server = makeServer({ clock: clock.now, sessionStore: store, sessionTtlMinutes: 10 });
    const session = await initialize(server);
    for (let i = 0; i < 3; i++) {
      clock.advance(8 * 60_000);
      assert.equal((await server.handle(post(rpc(i, 'ping'), inSession(session)))).status, 200);
    }
    clock.advance(10 * 60_000);
    assert.equal((await server.handle(post(rpc(9, 'ping'), inSession(session)))).status, 404);
    const stored = await store.get(session);
    assert.ok(
      stored !== undefined && stored.expiresAt <= clock.now(),
      'the expired read did not refresh the record',
    );
  });

  it('binds the session to the principal: another or a missing principal gets 404', async () => {
    const server = makeServer();
    const session = await initialize(server, { protocolVersion: '2025-11-25' }, { principal: alice });
    assert.equal(
      (await server.handle(post(rpc(1, 'ping'), inSession(session)), { principal: alice })).status,
      200,
    );
    assert.equal(
      (await server.handle(post(rpc(2, 'ping'), inSession(session)), { principal: bob })).status,
      404,
    );
    assert.equal((await server.handle(post(rpc(3, 'ping'), inSession(session)))).status, 404);
  });

  it('answers 503 "session store unavailable" when the store is down, without calling a tool', async () => {
    let calls = 0;
    const down: SessionStore = {
      get: () => Promise.reject(new SessionStoreUnavailableError()),
      put: (_record: SessionRecord) => Promise.reject(new SessionStoreUnavailableError()),
      delete: () => Promise.reject(new SessionStoreUnavailableError()),
    };
    const server = makeServer({ sessionStore: down });
    server.registerTool({ name: 't', inputSchema: { type: 'object' } }, () =>
      Promise.resolve({ content: [], isError: Boolean(++calls) }),
    );
    for (const request of [
      post(rpc(1, 'initialize', { protocolVersion: '2025-11-25' })),
      post(rpc(2, 'tools/call', { name: 't' }), inSession('x')),
    ]) {
      const res = await readJson(await server.handle(request));
      assert.equal(res.status, 503);
      assert.deepEqual(res.body.error, { code: -32603, message: 'session store unavailable' });
    }
    assert.equal(calls, 0);
  });
});
