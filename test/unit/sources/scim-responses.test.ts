/**
 * The `scim` adapter reading SCIM servers that bend the protocol within (or near) RFC 7643/7644: list
 * responses read case-insensitively and losslessly, media types parsed, `/ServiceProviderConfig` taken as
 * a hint, and filters a server refuses degraded step by step — remembered per base URL for the warm
 * function, visible once in the log and on every read as a local-match event. Each case is a path of
 * its own on one loopback server, so what the adapter learns of one never leaks into another.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SourceQuery } from '../../../lambda/federation/index.js';
import type { ProviderLogEntry, SourceSpec } from '../../../lambda/sources/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../../lambda/sources/scim/index.js';
import { startReplayHttpServer } from '../../../local/providers/replay/http-server.js';
import type { ReplayAnswer, ReplayHttpServer } from '../../../local/providers/replay/http-server.js';
import { runSource } from '../../helpers/source-run.js';

const SCIM = { 'content-type': 'application/scim+json' };
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const user = (i: number) => ({
  id: `u${i}`,
  userName: `user${i}@example.com`,
  displayName: `User ${i}`,
  emails: [{ value: `user${i}@example.com`, primary: true }],
  meta: { lastModified: `2026-10-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00Z` },
});
const PEOPLE = Array.from({ length: 281 }, (_, i) => user(i + 1));

/** A `/Users` answer for `startIndex`/`count` from `people`, spelled by `shape`. */
function listAnswer(
  url: URL,
  shape: (page: unknown[], total: number) => unknown,
  people = PEOPLE,
): ReplayAnswer {
  const start = Number(url.searchParams.get('startIndex') ?? '1');
  const count = Math.min(100, Number(url.searchParams.get('count') ?? '100'));
  return {
    status: 200,
    headers: SCIM,
    body: shape(people.slice(start - 1, start - 1 + count), people.length),
  };
}

/** A server that accepts only `eq` (RFC 7644 `invalidFilter` otherwise) and matches it exactly. */
function eqOnly(url: URL): ReplayAnswer {
  const filter = url.searchParams.get('filter');
  if (filter === null) return listAnswer(url, (Resources, totalResults) => ({ Resources, totalResults }));
  const eq = /^(userName|emails\.value) eq "([^"]*)"$/.exec(filter);
  if (eq === null)
    return {
      status: 400,
      headers: SCIM,
      body: { schemas: [ERROR], status: '400', scimType: 'invalidFilter', detail: 'secret-provider-text' },
    };
  const hits = PEOPLE.filter((p) => (eq[1] === 'userName' ? p.userName : p.emails[0]!.value) === eq[2]);
  return listAnswer(url, (Resources, totalResults) => ({ Resources, totalResults }), hits);
}

const CASES: Record<string, (url: URL) => ReplayAnswer> = {
  lowerResources: (url) => listAnswer(url, (resources, totalResults) => ({ resources, totalResults })),
  otherCaseTotal: (url) => listAnswer(url, (Resources, TotalResults) => ({ Resources, TotalResults })),
  // A total that counts only the page: taken at its word, the read would end after the first page.
  pageTotal: (url) => listAnswer(url, (Resources) => ({ Resources, totalResults: Resources.length })),
  noResources: (url) => listAnswer(url, (_page, totalResults) => ({ totalResults })),
  htmlBody: (url) => ({
    ...listAnswer(url, (Resources, totalResults) => ({ Resources, totalResults })),
    headers: { 'content-type': 'text/html' },
  }),
  jsonWithCharset: (url) => ({
    ...listAnswer(url, (Resources, totalResults) => ({ Resources, totalResults })),
    headers: { 'content-type': 'application/json; charset=utf-8' },
  }),
  eqOnly,
  eqOnlyServer: eqOnly,
  eqOnlyLocal: eqOnly,
  notImplemented: (url) =>
    url.searchParams.has('filter')
      ? { status: 501, headers: SCIM, body: { schemas: [ERROR], status: '501' } }
      : listAnswer(url, (Resources, totalResults) => ({ Resources, totalResults })),
  invalidValue: () => ({
    status: 400,
    headers: SCIM,
    body: { schemas: [ERROR], status: '400', scimType: 'invalidValue' },
  }),
};

let server: ReplayHttpServer;
before(async () => {
  server = await startReplayHttpServer(({ url }) => {
    const [, name, , , resource] = url.pathname.split('/');
    if (resource === 'ServiceProviderConfig')
      return Promise.resolve(
        name === 'lowerResources'
          ? { status: 404 }
          : { status: 200, headers: SCIM, body: { filter: { supported: true, maxResults: 100 } } },
      );
    return Promise.resolve(CASES[name ?? '']?.(url) ?? { status: 404 });
  });
});
after(() => server.close());

function adapter(
  name: string,
  log?: (entry: ProviderLogEntry) => void,
  options: Record<string, unknown> = {},
) {
  const spec: SourceSpec = {
    source_id: 'acme-scim',
    adapter: 'scim',
    options: { base_url: `${server.origin}/${name}/scim/v2`, ...options },
    credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve('token-4a1b') },
  };
  return createScimSource(spec, scimOptionsFromSpec(spec, true), {
    allowLoopbackHttp: true,
    ...(log === undefined ? {} : { log }),
  });
}

const filtersSent = (name: string) =>
  server.seen
    .filter((r) => r.url.startsWith(`/${name}/`) && r.url.includes('/Users'))
    .map((r) => new URL(r.url, server.origin).searchParams.get('filter'));

describe('the scim adapter reading servers as they are', { timeout: 30_000 }, () => {
  it('reads a list whose attribute names are in other cases, without a ServiceProviderConfig', async () => {
    for (const name of ['lowerResources', 'otherCaseTotal']) {
      const run = await runSource(adapter(name));
      assert.equal(run.delivered, 281, name);
      assert.match(run.terminal ?? '', /^complete/, name);
    }
  });

  it('pages on past a totalResults that would truncate the read, until an empty page', async () => {
    const run = await runSource(adapter('pageTotal'));
    assert.equal(run.delivered, 281);
    assert.match(run.terminal ?? '', /^complete/);
  });

  it('fails the source rather than ending it short when a page claims people it does not carry', async () => {
    const run = await runSource(adapter('noResources'));
    assert.equal(run.terminal, 'source_unavailable 0');
  });

  it('reads application/json with parameters, and refuses any other media type', async () => {
    assert.equal((await runSource(adapter('jsonWithCharset'))).delivered, 281);
    const logs: ProviderLogEntry[] = [];
    const run = await runSource(adapter('htmlBody', (e) => logs.push(e)));
    assert.equal(run.terminal, 'source_unavailable 0');
    assert.ok(logs.some((l) => l.event === 'provider_failed' && l.reason === 'bad_response'));
  });

  it('degrades a refused search to eq on user name and emails for a whole email, then to local matching', async () => {
    const logs: ProviderLogEntry[] = [];
    const log = (e: ProviderLogEntry) => logs.push(e);
    const byEmail: SourceQuery = { operation: 'search_people', query: 'USER42@example.com' };
    const first = await runSource(adapter('eqOnly', log), byEmail);
    assert.equal(first.delivered, 0, 'eq compares exactly: this server is case-sensitive');
    const exact = await runSource(adapter('eqOnly', log), {
      operation: 'search_people',
      query: 'user42@example.com',
    });
    assert.equal(exact.delivered, 1);
    const byName = await runSource(adapter('eqOnly', log), { operation: 'search_people', query: 'user 4' });
    assert.equal(byName.delivered, 11, 'User 4 and User 40 to 49, matched here');
    assert.deepEqual(filtersSent('eqOnly'), [
      'displayName co "USER42@example.com" or userName co "USER42@example.com" or emails.value co "USER42@example.com"',
      'userName eq "USER42@example.com"',
      'emails.value eq "USER42@example.com"',
      'userName eq "user42@example.com"',
      'emails.value eq "user42@example.com"',
      null,
      null,
      null,
    ]);
    const degraded = logs.filter((l) => l.event === 'provider_filter_degraded');
    assert.deepEqual(
      degraded.map((l) => [l.reason, l.status, l.filter]),
      [['filter_refused', 400, 'exact']],
      'one line for what this server refused; none for searches it was never asked',
    );
    assert.equal(logs.filter((l) => l.event === 'provider_local_match').length, 1);
    assert.ok(!JSON.stringify(logs).includes('secret-provider-text'));
  });

  it('degrades updated_since to a listing compared here, once per server', async () => {
    const logs: ProviderLogEntry[] = [];
    const since: SourceQuery = { operation: 'list_people', updated_since: '2026-10-27T00:00:00Z' };
    const want = PEOPLE.filter((p) => p.meta.lastModified >= '2026-10-27T00:00:00Z').length;
    for (let read = 0; read < 2; read++) {
      const run = await runSource(
        adapter('notImplemented', (e) => logs.push(e)),
        since,
      );
      assert.equal(run.delivered, want);
    }
    assert.deepEqual(
      logs.filter((l) => l.event === 'provider_filter_degraded').map((l) => [l.status, l.filter]),
      [[501, 'local']],
    );
    assert.equal(logs.filter((l) => l.event === 'provider_local_match').length, 2);
    assert.equal(
      filtersSent('notImplemented').filter((f) => f !== null).length,
      1,
      'the refusal is remembered',
    );
  });

  it('keeps to the server filter under filter "server", and never sends one under filter "local"', async () => {
    const search: SourceQuery = { operation: 'search_people', query: 'User 7' };
    assert.equal(
      (await runSource(adapter('eqOnlyServer', undefined, { filter: 'server' }), search)).terminal,
      'source_unavailable 0',
    );
    assert.equal(
      (await runSource(adapter('eqOnlyServer', undefined, { filter: 'server' }), search)).terminal,
      'source_unavailable 0',
    );
    const local = await runSource(adapter('eqOnlyLocal', undefined, { filter: 'local' }), search);
    assert.equal(local.delivered, 11);
    assert.deepEqual(filtersSent('eqOnlyLocal'), [null, null, null]);
  });

  it('does not degrade on a 400 that is not about the filter', async () => {
    const run = await runSource(adapter('invalidValue'), { operation: 'search_people', query: 'x' });
    assert.equal(run.terminal, 'source_unavailable 0');
  });

  it('refuses an unknown filter option with the options it takes', () => {
    assert.throws(
      () => adapter('eqOnly', undefined, { filter: 'sometimes' }),
      (error: Error & { problems?: string[] }) =>
        error.problems?.includes('options.filter must be one of "auto", "server", "local"') === true,
    );
  });
});
