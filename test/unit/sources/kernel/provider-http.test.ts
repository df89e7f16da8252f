/**
 * The provider kernel's request policy against a real loopback HTTP server (no fetch mocks): safety,
 * deadline, rate limits, the single retry, the status mapping and bounded bodies.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { ProviderError, ProviderHttp, ReadBudget } from '../../../../lambda/sources/kernel/index.js';
import type { ProviderLogEntry, ProviderSettings } from '../../../../lambda/sources/kernel/index.js';
import { freePort } from '../../../helpers/free-port.js';
import { sendJson, startLoopbackServer } from '../../../helpers/loopback-http.js';
import type { LoopbackServer } from '../../../helpers/loopback-http.js';

const source = { source_type: 'test', source_identity: 'kernel' };
const SECRET = 'provider-secret-text-9f1c';

function client(budgetMs: number, settings: ProviderSettings = {}, signal = new AbortController().signal) {
  const logs: ProviderLogEntry[] = [];
  const http = new ProviderHttp(source, new ReadBudget({ signal, deadline: Date.now() + budgetMs }), {
    allowLoopbackHttp: true,
    retryJitterMs: [5, 10],
    log: (entry) => logs.push(entry),
    ...settings,
  });
  return { http, logs };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
  assert.ok(!error.message.includes(SECRET), 'no provider text in the error');
  return error;
}

describe('the provider request policy', { timeout: 20_000 }, () => {
  const servers: LoopbackServer[] = [];
  const serve = async (...args: Parameters<typeof startLoopbackServer>) => {
    const server = await startLoopbackServer(...args);
    servers.push(server);
    return server;
  };
  after(() => Promise.all(servers.map((s) => s.close())));

  it('reads a JSON page from a loopback provider when the local allowance is set', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const page = await client(5000).http.getJson(new URL(`${server.origin}/Users`), {});
    assert.deepEqual(page.json, { ok: true });
  });

  it('refuses plain http without the loopback allowance and any URL carrying credentials', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const plain = await failure(
      client(5000, { allowLoopbackHttp: false }).http.getJson(new URL(`${server.origin}/x`), {}),
    );
    assert.equal(plain.code, 'source_unavailable');
    assert.equal(plain.reason, 'insecure_url');
    const withUser = await failure(
      client(5000).http.getJson(new URL(server.origin.replace('//', '//u:p@')), {}),
    );
    assert.equal(withUser.reason, 'insecure_url');
    assert.equal(server.requests.length, 0);
  });

  it('maps 401 and 403 to provider_authorization_required without the provider message', async () => {
    const server = await serve((req, res) => sendJson(res, req.url === '/a' ? 401 : 403, { detail: SECRET }));
    for (const path of ['/a', '/b']) {
      const error = await failure(client(5000).http.getJson(new URL(`${server.origin}${path}`), {}));
      assert.equal(error.code, 'provider_authorization_required');
    }
  });

  it('waits out a 429 whose Retry-After fits the budget, then reads the page', async () => {
    let calls = 0;
    const server = await serve((_req, res) =>
      ++calls === 1 ? sendJson(res, 429, {}, { 'retry-after': '1' }) : sendJson(res, 200, { n: calls }),
    );
    const { http, logs } = client(5000);
    const started = Date.now();
    const page = await http.getJson(new URL(`${server.origin}/x`), {});
    assert.deepEqual(page.json, { n: 2 });
    assert.ok(Date.now() - started >= 950, 'it waited the second Retry-After asked for');
    assert.ok(logs.some((l) => l.event === 'provider_rate_limit_wait' && l.wait_ms === 1000));
  });

  it('ends with rate_limited at once when the requested wait does not fit the budget', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    const server = await serve((req, res) =>
      req.url === '/date'
        ? sendJson(res, 429, {}, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() })
        : sendJson(res, 429, {}, { 'x-rate-limit-reset': String(reset) }),
    );
    for (const path of ['/date', '/reset']) {
      const started = Date.now();
      const error = await failure(client(3000).http.getJson(new URL(`${server.origin}${path}`), {}));
      assert.equal(error.code, 'rate_limited');
      assert.ok(Date.now() - started < 1000, 'no pointless wait');
    }
    assert.equal(server.requests.length, 2);
  });

  it('retries a 503 once and succeeds, but gives up with source_unavailable after a second one', async () => {
    let calls = 0;
    const flaky = await serve((_req, res) =>
      ++calls === 1 ? sendJson(res, 503, { detail: SECRET }) : sendJson(res, 200, { ok: true }),
    );
    assert.deepEqual((await client(5000).http.getJson(new URL(`${flaky.origin}/x`), {})).json, { ok: true });
    const down = await serve((_req, res) => sendJson(res, 503, { detail: SECRET }));
    const error = await failure(client(5000).http.getJson(new URL(`${down.origin}/x`), {}));
    assert.equal(error.code, 'source_unavailable');
    assert.equal(down.requests.length, 2, 'exactly one retry');
  });

  it("waits a 503's Retry-After before its one retry when it fits the budget, and not when it does not", async () => {
    let calls = 0;
    const busy = await serve((_req, res) =>
      ++calls === 1
        ? sendJson(res, 503, { detail: SECRET }, { 'retry-after': '1' })
        : sendJson(res, 200, { ok: true }),
    );
    const { http, logs } = client(5000);
    const startedAt = Date.now();
    assert.deepEqual((await http.getJson(new URL(`${busy.origin}/x`), {})).json, { ok: true });
    assert.ok(Date.now() - startedAt >= 950, 'the retry waited the second the provider asked for');
    assert.equal(logs.find((entry) => entry.event === 'provider_retry')?.wait_ms, 1000);
    const later = await serve((_req, res) => sendJson(res, 503, {}, { 'retry-after': '30' }));
    const error = await failure(client(2000).http.getJson(new URL(`${later.origin}/x`), {}));
    assert.equal(error.code, 'source_unavailable');
    assert.equal(later.requests.length, 1, 'a wait beyond the budget is not taken');
  });

  it('retries once after the provider resets the connection', async () => {
    let calls = 0;
    const server = await serve((req, res) => {
      if (++calls === 1) req.socket.destroy();
      else sendJson(res, 200, { ok: true });
    });
    assert.deepEqual((await client(5000).http.getJson(new URL(`${server.origin}/x`), {})).json, { ok: true });
    assert.equal(server.requests.length, 2);
  });

  it('ends with source_unavailable when nothing listens', async () => {
    const port = await freePort();
    const error = await failure(client(5000).http.getJson(new URL(`http://127.0.0.1:${port}/x`), {}));
    assert.equal(error.code, 'source_unavailable');
    assert.equal(error.reason, 'connection_refused');
  });

  it('aborts the in-flight request at the deadline: source_timeout, and the provider sees it closed', async () => {
    const server = await serve(async (_req, res) => {
      await delay(3000);
      if (!res.destroyed) sendJson(res, 200, {});
    });
    const started = Date.now();
    const error = await failure(client(300).http.getJson(new URL(`${server.origin}/slow`), {}));
    assert.equal(error.code, 'source_timeout');
    assert.ok(Date.now() - started < 1500);
    await delay(100);
    assert.equal(server.requests[0]?.abortedByClient, true);
  });

  it('aborts the in-flight request when the read is aborted (client disconnect)', async () => {
    const server = await serve(async (_req, res) => {
      await delay(3000);
      if (!res.destroyed) sendJson(res, 200, {});
    });
    const controller = new AbortController();
    const pending = client(10_000, {}, controller.signal).http.getJson(new URL(`${server.origin}/x`), {});
    await delay(100);
    controller.abort(new DOMException('client went away', 'AbortError'));
    const error = await pending.then(
      () => assert.fail('expected an abort'),
      (e: unknown) => e,
    );
    assert.equal((error as Error).name, 'AbortError');
    await delay(100);
    assert.equal(server.requests[0]?.abortedByClient, true);
  });

  it('fails a body over the configured bound with source_unavailable', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ pad: 'x'.repeat(4096) }));
    });
    const error = await failure(
      client(5000, { maxBodyBytes: 1024 }).http.getJson(new URL(`${server.origin}/x`), {}),
    );
    assert.equal(error.reason, 'body_too_large');
  });

  it('never follows a redirect', async () => {
    const target = await serve((_req, res) => sendJson(res, 200, {}));
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: `${target.origin}/elsewhere` });
      res.end();
    });
    const error = await failure(client(5000).http.getJson(new URL(`${server.origin}/x`), {}));
    assert.equal(error.reason, 'redirect');
    assert.equal(target.requests.length, 0);
  });

  it('fails a body that is not JSON with source_unavailable', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.end(`<html>${SECRET}</html>`);
    });
    const error = await failure(client(5000).http.getJson(new URL(`${server.origin}/x`), {}));
    assert.equal(error.reason, 'invalid_json');
  });
});
