/**
 * The `http-json` adapter through the real engine against a loopback REST JSON server that pages in each
 * declared way (offset/limit, page number, cursor field, next-URL field, Link header), and the load-time
 * validation of definitions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SourceSpec } from '../../../../lambda/sources/index.js';
import { buildSource, SourceConfigError, unavailableSource } from '../../../../lambda/sources/index.js';
import {
  createHttpJsonSource,
  createHttpJsonSourceFactory,
  httpJsonOptionsFromSpec,
} from '../../../../lambda/sources/http-json/index.js';
import { seededPopulation } from '../../../../local/providers/population.js';
import { startReplayHttpServer } from '../../../../local/providers/replay/http-server.js';
import type { ReplayHttpServer } from '../../../../local/providers/replay/http-server.js';
import { staticCredential } from '../../../helpers/oauth-vendors.js';
import { runSource } from '../../../helpers/source-run.js';

const TOKEN = 'payroll-token-0123456789-abcdef';
const people = seededPopulation({ name: 'acme-payroll', size: 230 });
const rows = people.map((p) => ({
  emp: { id: p.id, name: p.displayName, contact: { mail: p.email, mobile: p.phone } },
  status: p.active ? 'active' : 'terminated',
  updated_at: p.lastModified,
  org: { department: p.department },
}));
let server: ReplayHttpServer;

before(async () => {
  server = await startReplayHttpServer(({ url, request }) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`)
      return Promise.resolve({ status: 401, body: { message: 'bad token for payroll api' } });
    const q = url.searchParams.get('q')?.toLowerCase();
    const found = q === undefined ? rows : rows.filter((r) => r.emp.name.toLowerCase().includes(q));
    const slice = (from: number, size: number) => found.slice(from, from + size);
    const p = url.searchParams;
    // `/capped…` answers at most 40 records a page, whatever was asked (as servers with a lower maximum do).
    const cap = url.pathname.startsWith('/capped') ? 40 : Infinity;
    switch (url.pathname.replace('/capped', '/')) {
      case '//offset':
      case '/offset':
        return Promise.resolve({
          status: 200,
          body: { data: { items: slice(Number(p.get('offset')), Math.min(cap, Number(p.get('limit')))) } },
        });
      case '//pages':
      case '/pages': {
        const size = Math.min(cap, Number(p.get('per_page')));
        return Promise.resolve({
          status: 200,
          body: { data: { items: slice((Number(p.get('page')) - 1) * size, size) } },
        });
      }
      case '/cursor': {
        const from = Number(p.get('cursor') ?? '0');
        const more = from + 100 < found.length;
        return Promise.resolve({
          status: 200,
          body: { data: { items: slice(from, 100) }, next_cursor: more ? String(from + 100) : null },
        });
      }
      case '/next': {
        const from = Number(p.get('from') ?? '0');
        const next = from + 100 < found.length ? `${server.origin}/next?from=${from + 100}` : undefined;
        return Promise.resolve({ status: 200, body: { data: { items: slice(from, 100) }, next } });
      }
      case '/link': {
        const from = Number(p.get('from') ?? '0');
        const headers: Record<string, string> =
          from + 100 < found.length ? { link: `<${server.origin}/link?from=${from + 100}>; rel="next"` } : {};
        return Promise.resolve({ status: 200, headers, body: { data: { items: slice(from, 100) } } });
      }
      default:
        return Promise.resolve({ status: 404 });
    }
  });
});
after(() => server.close());

const spec = (options: Record<string, unknown>, token = TOKEN): SourceSpec => ({
  source_id: 'acme-payroll',
  adapter: 'http-json',
  credential: staticCredential('ACME_PAYROLL_TOKEN', token),
  options: {
    base_url: server.origin,
    operations: { list_people: '/offset' },
    auth: { kind: 'bearer' },
    pagination: { kind: 'offset_limit', page_size: 100 },
    records_path: 'data.items',
    source_type: 'payroll',
    fields: {
      external_id: 'emp.id',
      display_name: 'emp.name',
      email: 'emp.contact.mail',
      phone: 'emp.contact.mobile',
      lifecycle: 'status',
      observed_at: 'updated_at',
      attributes: { department: 'org.department' },
    },
    ...options,
  },
});
const adapter = (s: SourceSpec) =>
  createHttpJsonSource(s, httpJsonOptionsFromSpec(s, true), { allowLoopbackHttp: true });

describe('http-json source', { timeout: 30_000 }, () => {
  const kinds: [string, Record<string, unknown>][] = [
    [
      'offset/limit',
      { operations: { list_people: '/offset' }, pagination: { kind: 'offset_limit', page_size: 100 } },
    ],
    [
      'page number',
      { operations: { list_people: '/pages' }, pagination: { kind: 'page_number', page_size: 100 } },
    ],
    ['cursor field', { operations: { list_people: '/cursor' }, pagination: { kind: 'cursor' } }],
    [
      'next-URL field',
      { operations: { list_people: '/next' }, pagination: { kind: 'next_url', next_url_field: 'next' } },
    ],
    ['Link header', { operations: { list_people: '/link' }, pagination: { kind: 'link_header' } }],
  ];
  for (const [name, options] of kinds)
    it(`reads every record across pages by ${name}, mapped onto the federated fields`, async () => {
      const run = await runSource(adapter(spec(options)));
      assert.equal(run.terminal, 'complete 3');
      assert.equal(run.delivered, 230);
      const page = run.events[0]!;
      assert.ok(page.type === 'page');
      const record = page.records.find((r) => r.sources[0]?.external_id === people[0]!.id)!;
      assert.equal(record.email, people[0]!.email);
      assert.equal(record.display_name, people[0]!.displayName);
      assert.equal(record.attributes['department'], people[0]!.department);
      assert.equal(record.sources[0]!.observed_at, new Date(people[0]!.lastModified).toISOString());
    });

  for (const [name, options] of [
    ['offset/limit', { operations: { list_people: '/capped/offset' }, pagination: { kind: 'offset_limit' } }],
    ['page number', { operations: { list_people: '/capped/pages' }, pagination: { kind: 'page_number' } }],
  ] as const)
    it(`reads every record by ${name} from a server that answers fewer per page than asked`, async () => {
      const run = await runSource(
        adapter(spec({ ...options, pagination: { ...options.pagination, page_size: 100 } })),
      );
      assert.equal(run.terminal, 'complete 6', 'six short pages, none taken for the last');
      assert.equal(run.delivered, 230);
    });

  it('fills the search template with the URL-encoded query', async () => {
    const s = spec({ operations: { list_people: '/offset', search_people: '/offset?q={query}' } });
    const run = await runSource(adapter(s), { operation: 'search_people', query: 'ada' });
    assert.equal(run.delivered, people.filter((p) => p.displayName.toLowerCase().includes('ada')).length);
    assert.match(server.seen.at(-1)!.url, /[?&]q=ada(&|$)/);
  });

  it('answers a search itself when the definition has no search template', async () => {
    const run = await runSource(adapter(spec({})), { operation: 'search_people', query: 'ada' });
    const expected = people.filter(
      (p) => p.displayName.toLowerCase().includes('ada') || p.email.includes('ada'),
    );
    assert.equal(run.delivered, expected.length);
  });

  it('ends provider_authorization_required on a refused token, without the provider message', async () => {
    const run = await runSource(adapter(spec({}, 'wrong-token-0000000000')));
    assert.equal(run.terminal, 'provider_authorization_required 0');
    assert.ok(!run.visible.includes('bad token for payroll api') && !run.visible.includes('wrong-token'));
  });
});

describe('http-json definitions', () => {
  it('names every bad field when the directory is loaded', () => {
    const bad = spec({
      base_url: 'ftp://payroll',
      operations: { search_people: 'employees' },
      auth: { kind: 'magic' },
      pagination: { kind: 'offset_limit', page_size: 0 },
      records_path: 'data..items',
      fields: { display_name: 'name', nickname: 'nick' },
    });
    assert.throws(
      () => httpJsonOptionsFromSpec(bad, true),
      (error: unknown) => {
        assert.ok(error instanceof SourceConfigError);
        for (const field of [
          'base_url',
          'operations.search_people',
          'operations.list_people',
          'auth.kind',
          'pagination.page_size',
          'records_path',
          'fields.external_id',
          'fields.nickname',
        ])
          assert.ok(
            error.problems.some((p) => p.includes(`options.${field}`)),
            `${field}: ${error.problems.join('; ')}`,
          );
        return true;
      },
    );
  });

  it('makes a bad definition end source_unavailable at read time while a good one reads', async () => {
    const factories = { 'http-json': createHttpJsonSourceFactory({ allowLoopbackHttp: true }) };
    const broken = spec({ pagination: { kind: 'sideways' } });
    assert.throws(() => buildSource(broken, factories), SourceConfigError);
    assert.equal((await runSource(unavailableSource(broken))).terminal, 'source_unavailable 0');
    assert.equal((await runSource(buildSource(spec({}), factories))).terminal, 'complete 3');
  });
});
