/**
 * The kernel's page loop and HTTP paging kinds against a real loopback server: index, cursor, Link and
 * next-URL paging, pages yielded before the provider's last page exists, the next page asked for once the
 * previous one is handed over, cross-origin links refused,
 * malformed records skipped and counted, and rate-limit header parsing.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { RawRecord } from '../../../../lambda/federation/index.js';
import {
  cursorPaging,
  indexPaging,
  linkPaging,
  nextUrlPaging,
  ProviderError,
  providerPages,
  ProviderHttp,
  rateLimitWaitMs,
  ReadBudget,
} from '../../../../lambda/sources/kernel/index.js';
import type { ItemOutcome, NextPageUrl, ProviderLogEntry } from '../../../../lambda/sources/kernel/index.js';
import { sendJson, startLoopbackServer } from '../../../helpers/loopback-http.js';
import type { LoopbackServer } from '../../../helpers/loopback-http.js';

const source = { source_type: 'test', source_identity: 'paging' };
const TOTAL = 250;
const record = (id: string): RawRecord => ({
  ...source,
  external_id: id,
  record_type: 'person',
  observed_at: '2026-10-08T12:00:00Z',
  capabilities: ['read'],
});
const toRecord = (item: unknown): ItemOutcome =>
  typeof (item as { id?: unknown }).id === 'string'
    ? record((item as { id: string }).id)
    : { skip: 'malformed_record' };

function read(first: URL, next: NextPageUrl, logs: ProviderLogEntry[] = []) {
  const budget = new ReadBudget({ signal: new AbortController().signal, deadline: Date.now() + 5000 });
  const settings = { allowLoopbackHttp: true, log: (e: ProviderLogEntry) => logs.push(e) };
  const http = new ProviderHttp(source, budget, settings);
  return providerPages<URL>({
    source,
    first,
    settings,
    toRecord,
    fetchPage: async (url, signal) => {
      const page = await http.getJson(url, {}, signal);
      const items = (page.json as { items?: unknown[] }).items ?? [];
      return { items, next: next(page, items.length) };
    },
  });
}

async function collect(pages: AsyncIterable<RawRecord[]>): Promise<string[][]> {
  const out: string[][] = [];
  for await (const page of pages) out.push(page.map((r) => r.external_id));
  return out;
}

const ids = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `p${from + i}` }));

describe('the provider page loop', { timeout: 20_000 }, () => {
  const servers: LoopbackServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));
  const serve = async (...args: Parameters<typeof startLoopbackServer>) => {
    const server = await startLoopbackServer(...args);
    servers.push(server);
    return server;
  };

  it('follows SCIM index paging to totalResults', async () => {
    const server = await serve((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const start = Number(url.searchParams.get('startIndex'));
      const count = Math.min(TOTAL - start + 1, 100);
      sendJson(res, 200, { totalResults: TOTAL, items: ids(start, count) });
    });
    const pages = await collect(
      read(new URL(`${server.origin}/Users?startIndex=1&count=100`), indexPaging({})),
    );
    assert.deepEqual(
      pages.map((p) => p.length),
      [100, 100, 50],
    );
    assert.equal(pages.flat().at(-1), 'p250');
  });

  it('follows cursors, Link headers and next URLs in the body', async () => {
    const server = await serve((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const page = Number(url.searchParams.get('cursor') || url.searchParams.get('page') || '0');
      const more = page < 2;
      const next = `${server.origin}${url.pathname}?page=${page + 1}`;
      sendJson(
        res,
        200,
        { items: ids(page * 10, 10), ...(more ? { nextCursor: String(page + 1), next } : {}) },
        more && url.pathname === '/link'
          ? { link: `<${next}>; rel="next", <${server.origin}/>; rel="first"` }
          : {},
      );
    });
    const origin = server.origin;
    for (const [path, paging] of [
      ['/cursor?cursor=', cursorPaging()],
      ['/link', linkPaging(origin)],
      ['/body', nextUrlPaging('next', origin)],
    ] as const) {
      const pages = await collect(read(new URL(`${origin}${path}`), paging));
      assert.deepEqual(
        pages.map((p) => p.length),
        [10, 10, 10],
        path,
      );
    }
  });

  it('yields a provider page before the provider has answered the next one', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await serve(async (req, res) => {
      const start = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('startIndex'));
      if (start > 1) await held;
      sendJson(res, 200, { totalResults: 200, items: ids(start, 100) });
    });
    const iterator = read(new URL(`${server.origin}/Users?startIndex=1`), indexPaging({}));
    const first = await iterator.next();
    assert.equal((first.value as RawRecord[]).length, 100, 'the first page arrived while the second is held');
    release();
    assert.equal(((await iterator.next()).value as RawRecord[]).length, 100);
    assert.equal((await iterator.next()).done, true);
  });

  it('asks for the next page once the parsed one is handed over, even while the consumer holds it', async () => {
    const steps: string[] = [];
    const pages = providerPages<number>({
      source,
      first: 1,
      toRecord,
      fetchPage: (page) => {
        steps.push(`fetch ${page}`);
        return Promise.resolve({ items: [{ id: `p${page}` }], next: page < 3 ? page + 1 : undefined });
      },
    });
    const first = await pages.next();
    steps.push(`handed ${(first.value as RawRecord[])[0]?.external_id}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(steps, ['fetch 1', 'handed p1', 'fetch 2'], 'prefetched after the hand-over, unasked');
    const rest = [];
    for await (const page of pages) rest.push(page[0]?.external_id);
    assert.deepEqual(rest, ['p2', 'p3']);
    assert.deepEqual(steps.slice(3), ['fetch 3']);
  });

  it('refuses a next link to another origin', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, { items: ids(0, 5), next: 'https://attacker.example/steal' }),
    );
    const pages = read(new URL(`${server.origin}/body`), nextUrlPaging('next', server.origin));
    const error = await collect(pages).then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ProviderError);
    assert.equal(error.reason, 'cross_origin_next');
  });

  it('fails with paging_loop when a next link names the page just read, by Link header or in the body', async () => {
    const server = await serve((req, res) => {
      const self = `${server.origin}${req.url ?? '/'}`;
      res.setHeader('link', `<${self}>; rel="next"`);
      sendJson(res, 200, { items: ids(0, 5), next: self });
    });
    for (const next of [linkPaging(server.origin), nextUrlPaging('next', server.origin)]) {
      const error = await collect(read(new URL(`${server.origin}/loop?page=1`), next)).then(
        () => assert.fail('expected a failure'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ProviderError);
      assert.equal(error.reason, 'paging_loop');
    }
  });

  it('skips malformed items and reports how many, without their content', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, { items: [{ id: 'a' }, { name: 'no id' }, 7, { id: 'b' }] }),
    );
    const logs: ProviderLogEntry[] = [];
    const pages = await collect(read(new URL(`${server.origin}/x`), () => undefined, logs));
    assert.deepEqual(pages, [['a', 'b']]);
    assert.deepEqual(
      logs.filter((l) => l.event === 'provider_records_skipped').map((l) => l.count),
      [2],
    );
  });
});

describe('rate-limit waits', () => {
  it('reads Retry-After as seconds or an HTTP date, and X-Rate-Limit-Reset against the Date header', () => {
    const now = Date.parse('2026-10-08T12:00:00Z');
    assert.equal(rateLimitWaitMs({ 'retry-after': '7' }, now), 7000);
    assert.equal(rateLimitWaitMs({ 'retry-after': 'Thu, 08 Oct 2026 12:00:30 GMT' }, now), 30_000);
    assert.equal(
      rateLimitWaitMs(
        { 'x-rate-limit-reset': String(now / 1000 + 10), date: 'Thu, 08 Oct 2026 12:00:05 GMT' },
        now,
      ),
      6000,
    );
    assert.equal(rateLimitWaitMs({}, now), undefined);
    // Microsoft Graph's throttling guidance shows a fractional Retry-After ("Sample response").
    assert.equal(rateLimitWaitMs({ 'retry-after': '2.128' }, now), 2128);
    assert.equal(rateLimitWaitMs({ 'retry-after': 'soon' }, now), undefined);
  });
});
