/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * Per-principal and per-tenant rate limits on POST, GET and DELETE (docs/mcp-runtime.md "Rate limits"): HTTP 429
 * with `Retry-After` and `-32029`, counted in shared fixed windows, failing open when the counters cannot answer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryRateCounterStore, JsonRpcCode } from '../../../lambda/mcp/index.js';
import type {
  Logger,
  McpInvocationContext,
  Principal,
  RateCounterStore,
  RateLimitEvent,
  RateLimitOptions,
} from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, post, readJson, rpc } from './helpers.js';

const WINDOW_MS = 60_000;
/** 12:00:10 into a window that started at a whole minute: 50 s remain. */
const NOW = Date.UTC(2026, 11, 6, 12, 0, 10);

const alice: Principal = { subject: 'alice', scopes: ['bos.read'], tenant: 'acme' };
const bob: Principal = { subject: 'bob', scopes: ['bos.read'], tenant: 'acme' };
const carol: Principal = { subject: 'carol', scopes: ['bos.read'], tenant: 'globex' };

function limitedServer(limits: Partial<RateLimitOptions>, clock: () => number = () => NOW) {
  const events: RateLimitEvent[] = [];
  const server = makeServer({
    clock,
    rateLimit: {
      store: new InMemoryRateCounterStore({ clock }),
      principalLimit: 0,
      tenantLimit: 0,
      windowMs: WINDOW_MS,
      onEvent: (event) => events.push(event),
      ...limits,
    },
  });
  return { server, events };
}

/** A request every caller may make without a session: `initialize`. */
const ping = (id: number): Request => post(rpc(id, 'initialize', { protocolVersion: '2025-11-25' }));
const as = (principal: Principal): McpInvocationContext => ({ principal });

async function statuses(
  server: ReturnType<typeof makeServer>,
  principal: Principal,
  count: number,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await server.handle(ping(i), as(principal));
    await response.body?.cancel();
    out.push(response.status);
  }
  return out;
}

/** Records warnings; everything else is dropped. */
function warnings(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const ignore = (): void => undefined;
  return {
    lines,
    logger: { debug: ignore, info: ignore, error: ignore, warn: (message) => lines.push(message) },
  };
}

describe('the per-principal limit', () => {
  it('admits the limit, then answers 429 with Retry-After until the window ends and -32029 naming the bucket', async () => {
    const { server, events } = limitedServer({ principalLimit: 3 });

    assert.deepEqual(await statuses(server, alice, 3), [200, 200, 200]);
    const refused = await readJson(await server.handle(ping(9), as(alice)));
    const headers = (await server.handle(ping(10), as(alice))).headers;

    assert.equal(refused.status, 429);
    assert.equal(headers.get('retry-after'), '50');
    assert.equal(headers.get('content-type'), 'application/json');
    assert.deepEqual(refused.body, {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: JsonRpcCode.RateLimited,
        message: 'Rate limit exceeded',
        data: { bucket: 'principal', retryAfterSeconds: 50 },
      },
    });
    assert.equal(JsonRpcCode.RateLimited, -32029);
    assert.deepEqual(events, [
      { kind: 'limited', bucket: 'principal' },
      { kind: 'limited', bucket: 'principal' },
    ]);
  });

  it('counts each principal on its own', async () => {
    const { server } = limitedServer({ principalLimit: 2 });

    assert.deepEqual(await statuses(server, alice, 3), [200, 200, 429]);
    assert.deepEqual(await statuses(server, bob, 2), [200, 200]);
  });

  it('admits again in the next window', async () => {
    let now = NOW;
    const { server } = limitedServer({ principalLimit: 1 }, () => now);

    assert.deepEqual(await statuses(server, alice, 2), [200, 429]);
    now += 50_000;
    assert.deepEqual(await statuses(server, alice, 1), [200]);
  });

  it('counts GET and DELETE on the session-ful route as it counts POST', async () => {
    const { server } = limitedServer({ principalLimit: 3 });
    const session = await initialize(server, undefined, as(alice));
    const get = new Request('http://localhost/mcp', {
      method: 'GET',
      headers: { accept: 'text/event-stream', ...inSession(session) },
    });
    const del = new Request('http://localhost/mcp', { method: 'DELETE', headers: inSession(session) });

    const first = await server.handle(get, as(alice));
    await first.body?.cancel();
    const second = await server.handle(del, as(alice));
    const third = await server.handle(del.clone(), as(alice));

    assert.equal(first.status, 200);
    assert.equal(second.status, 202);
    assert.equal(third.status, 429);
  });

  it('leaves requests without a principal and methods the endpoint refuses anyway uncounted', async () => {
    const { server } = limitedServer({ principalLimit: 1 });
    const put = new Request('http://localhost/mcp', { method: 'PUT' });

    assert.equal((await server.handle(put, as(alice))).status, 405);
    assert.equal((await server.handle(ping(1))).status, 200);
    assert.equal((await server.handle(ping(2))).status, 200);
    assert.deepEqual(await statuses(server, alice, 2), [200, 429]);
  });
});

describe('the per-tenant limit', () => {
  it('pools every principal of a tenant, and keeps tenants apart', async () => {
    const { server, events } = limitedServer({ principalLimit: 10, tenantLimit: 3 });

    assert.deepEqual(await statuses(server, alice, 2), [200, 200]);
    assert.deepEqual(await statuses(server, bob, 2), [200, 429]);
    assert.deepEqual(await statuses(server, carol, 3), [200, 200, 200]);
    const refused = await readJson(await server.handle(ping(1), as(alice)));

    assert.equal(refused.body.error.data.bucket, 'tenant');
    assert.deepEqual(events.at(-1), { kind: 'limited', bucket: 'tenant' });
  });

  it("lets no refused request count: a principal over its own limit does not spend its tenant's share", async () => {
    const { server } = limitedServer({ principalLimit: 2, tenantLimit: 4 });

    assert.deepEqual(await statuses(server, alice, 10), [200, 200, 429, 429, 429, 429, 429, 429, 429, 429]);
    assert.deepEqual(await statuses(server, bob, 3), [200, 200, 429]);
    const refused = await readJson(await server.handle(ping(1), as({ ...carol, tenant: 'acme' })));

    assert.equal(refused.body.error.data.bucket, 'tenant');
  });

  it('makes a principal without a tenant a tenant of its own, never pooled with others', async () => {
    const { server } = limitedServer({ tenantLimit: 2 });
    const loner = { subject: 'dave', scopes: ['bos.read'] };
    const other = { subject: 'erin', scopes: ['bos.read'] };
    const namedLikeASubject = { subject: 'frank', scopes: ['bos.read'], tenant: 'dave' };

    assert.deepEqual(await statuses(server, loner, 3), [200, 200, 429]);
    assert.deepEqual(await statuses(server, other, 2), [200, 200]);
    assert.deepEqual(await statuses(server, namedLikeASubject, 2), [200, 200]);
  });
});

describe('when the counter store cannot answer', () => {
  it('admits the request, logs a warning and reports store_unavailable (fails open)', async () => {
    const events: RateLimitEvent[] = [];
    const { logger, lines } = warnings();
    const broken: RateCounterStore = {
      take: () => Promise.reject(new Error('connect ECONNREFUSED')),
      release: () => Promise.reject(new Error('connect ECONNREFUSED')),
    };
    const server = makeServer({
      logger,
      rateLimit: {
        store: broken,
        principalLimit: 1,
        tenantLimit: 0,
        onEvent: (event) => events.push(event),
      },
    });

    assert.deepEqual(await statuses(server, alice, 2), [200, 200]);
    assert.deepEqual(lines, [
      'rate limit store unavailable; request admitted',
      'rate limit store unavailable; request admitted',
    ]);
    assert.deepEqual(events, [{ kind: 'store_unavailable' }, { kind: 'store_unavailable' }]);
  });

  it('admits the request once the store has taken longer than its timeout', async () => {
    const { logger, lines } = warnings();
    const hanging: RateCounterStore = {
      take: () => new Promise<boolean>(() => undefined),
      release: () => Promise.resolve(),
    };
    const server = makeServer({
      logger,
      rateLimit: { store: hanging, principalLimit: 1, tenantLimit: 0, timeoutMs: 20 },
    });
    const started = performance.now();

    const response = await server.handle(ping(1), as(alice));

    assert.equal(response.status, 200);
    assert.ok(performance.now() - started < 1000);
    assert.deepEqual(lines, ['rate limit store too slow; request admitted']);
  });

  it('still refuses when the other bucket is full', async () => {
    const { logger } = warnings();
    const store = new InMemoryRateCounterStore({ clock: () => NOW });
    const tenantDown: RateCounterStore = {
      take: (key, ...rest) =>
        key.startsWith('t#') ? Promise.reject(new Error('down')) : store.take(key, ...rest),
      release: (key, windowStart) => store.release(key, windowStart),
    };
    const server = makeServer({
      clock: () => NOW,
      logger,
      rateLimit: { store: tenantDown, principalLimit: 1, tenantLimit: 5 },
    });

    assert.deepEqual(await statuses(server, alice, 2), [200, 429]);
  });
});
