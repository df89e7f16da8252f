/**
 * The `entra` adapter against what Microsoft itself publishes, as the Graph replay serves it (its sources
 * are cited in `local/providers/graph/payloads.ts` and `users.ts`): users with null names, mail or phones,
 * B2B guests, properties nobody asked for; `$skiptoken` next links through empty pages; the advanced query
 * headers on every page; `@odata.count` on the first page only; throttling with a fractional or absent
 * `Retry-After`; `503`/`504`; and pages that cannot be read. Next-link spellings Graph itself does not use
 * but OData allows are served by a plain loopback server.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { FederatedRecord } from '../../../../lambda/federation/index.js';
import { createEntraSource, entraOptionsFromSpec } from '../../../../lambda/sources/entra/index.js';
import type { SourceSpec } from '../../../../lambda/sources/index.js';
import type { ProviderSettings } from '../../../../lambda/sources/kernel/index.js';
import { graphShape } from '../../../../local/providers/graph/users.js';
import { sendJson, startLoopbackServer } from '../../../helpers/loopback-http.js';
import { startOAuthVendors } from '../../../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../../../helpers/oauth-vendors.js';
import { runSource } from '../../../helpers/source-run.js';
import type { SourceRun } from '../../../helpers/source-run.js';

const SETTINGS: ProviderSettings = { allowLoopbackHttp: true, retryJitterMs: [5, 10] };
let vendors: OAuthVendors;
before(async () => {
  vendors = await startOAuthVendors(250, [], { graphVendorShapes: true });
});
after(() => vendors.close());
afterEach(() => vendors.reset());

const adapter = (spec: SourceSpec = vendors.entraSpec()) =>
  createEntraSource(spec, entraOptionsFromSpec(spec, true), SETTINGS);
const graphRequests = () => vendors.graph.seen.filter((r) => r.url.startsWith('/v1.0/users'));
const records = (run: SourceRun): FederatedRecord[] =>
  run.events.flatMap((e) => (e.type === 'page' ? e.records : []));
const byExternalId = (run: SourceRun) => new Map(records(run).map((r) => [r.sources[0]!.external_id, r]));
const userOf = (shape: ReturnType<typeof graphShape>) => {
  const index = vendors.graph.people.findIndex((p) => graphShape(p) === shape);
  return vendors.graph.users[index]!;
};

/** Asks the replay directly with the token the adapter's broker holds. */
async function askGraph(query: string, headers: Record<string, string> = {}) {
  await runSource(adapter(), { operation: 'search_people', query: 'zz-warm-up' });
  const authorization = String(graphRequests().at(-1)!.headers['authorization']);
  const response = await fetch(`${vendors.graph.graphUrl}/users?${query}`, {
    headers: { authorization, ...headers },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('entra source against Microsoft-published shapes', { timeout: 60_000 }, () => {
  it('maps resource accounts, users without mail, guests and unasked properties as Graph lists them', async () => {
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    const got = byExternalId(run);
    const resource = got.get(String(userOf('resource')['id']))!;
    assert.equal(resource.phone, null);
    assert.equal(resource.display_name, userOf('resource')['displayName']);
    const noMail = got.get(String(userOf('no_mail')['id']))!;
    assert.equal(noMail.email, null);
    assert.equal(noMail.phone, (userOf('no_mail')['businessPhones'] as string[])[0]);
    const guest = got.get(String(userOf('guest')['id']))!;
    assert.equal(guest.email, userOf('guest')['mail'], "the owner's casing is kept");
    assert.match(String(guest.attributes['user_principal_name']), /#EXT#@/);
    const extended = got.get(String(userOf('extended')['id']))!;
    assert.deepEqual(Object.keys(extended.attributes).sort(), [
      'department',
      'job_title',
      'user_principal_name',
    ]);
  });

  it("finds a guest by the start of its #EXT# userPrincipalName ('#' encoded in the URL)", async () => {
    const upn = String(userOf('guest')['userPrincipalName']);
    const prefix = upn.slice(0, upn.indexOf('#EXT#') + 5);
    const run = await runSource(adapter(), { operation: 'search_people', query: prefix });
    assert.equal(run.terminal, 'complete 1');
    assert.deepEqual([...byExternalId(run).keys()], [userOf('guest')['id']]);
    assert.match(graphRequests().at(-1)!.url, /%23EXT%23/);
  });

  it('the replay answers as documented: count on the first page only, $count alone ignored, endsWith refused without the headers', async () => {
    const eventual = { consistencylevel: 'eventual' };
    const counted = await askGraph("$top=100&$count=true&$filter=endswith(mail,'.com')", eventual);
    assert.equal(counted.body['@odata.count'], 250 - 5, 'the five users without mail do not end with .com');
    const next = await fetch(String(counted.body['@odata.nextLink']), {
      headers: { authorization: String(graphRequests().at(-1)!.headers['authorization']), ...eventual },
    });
    assert.equal(((await next.json()) as Record<string, unknown>)['@odata.count'], undefined);
    const silent = await askGraph('$top=5&$count=true');
    assert.equal(silent.status, 200);
    assert.equal(silent.body['@odata.count'], undefined);
    const refused = await askGraph("$top=5&$count=true&$filter=endswith(mail,'.com')");
    assert.equal(refused.status, 400);
    assert.equal((refused.body['error'] as { code: string }).code, 'Request_UnsupportedQuery');
  });

  it('sends ConsistencyLevel: eventual and $count=true on every page of an advanced query', async () => {
    const before = graphRequests().length;
    const run = await runSource(adapter(), { operation: 'search_people', query: '@example.com' });
    const expected = vendors.graph.users.filter((u) => String(u['mail']).endsWith('@example.com')).length;
    assert.equal(run.delivered, expected);
    const sent = graphRequests().slice(before);
    assert.equal(sent.length, 3);
    for (const request of sent) {
      assert.equal(request.headers['consistencylevel'], 'eventual');
      assert.match(request.url, /%24count=true/);
    }
  });

  it('in a tenant without advanced queries (Azure AD B2C), lists every user for a mail-domain search, matches the domain itself and remembers it', async () => {
    vendors.graph.tenant.advancedQueries = false;
    const source = adapter();
    const search = { operation: 'search_people', query: '@EXAMPLE.com', limit: 120 } as const;
    const before = graphRequests().length;
    const first = await runSource(source, search);
    const expected = vendors.graph.users.filter((u) =>
      String(u['mail']).toLowerCase().endsWith('@example.com'),
    );
    assert.ok(expected.length > 120);
    assert.equal(first.terminal, 'complete 2');
    assert.equal(first.delivered, 120);
    const sent = graphRequests().slice(before);
    assert.match(sent[0]!.url, /endswith/, 'the advanced query was tried first');
    assert.ok(sent.slice(1).every((r) => !r.url.includes('%24filter') && !r.url.includes('%24count')));
    const again = graphRequests().length;
    const second = await runSource(source, search);
    assert.equal(second.delivered, 120);
    assert.ok(!graphRequests()[again]!.url.includes('%24filter'), 'the refusal is remembered');
  });

  it('follows $skiptoken next links through empty pages to the last user', async () => {
    vendors.graph.switches.emptyPages = true;
    const before = graphRequests().length;
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    assert.equal(run.delivered, 250);
    assert.equal(graphRequests().length - before, 5, 'three pages and two empty ones');
  });

  it("waits a fractional Retry-After to the millisecond (Graph's sample shows 2.128)", async () => {
    vendors.graph.switches.script.push({ kind: 'throttle', retryAfterS: 1.5 });
    const before = graphRequests().length;
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    const [throttled, retried] = graphRequests().slice(before);
    assert.ok(retried!.answeredAt! - throttled!.answeredAt! >= 1450, 'waited the 1.5 s asked for');
  });

  it('waits and reads on after a 429 that names no wait, and keeps Graph throttle text out of view', async () => {
    vendors.graph.switches.script.push({ kind: 'throttle' });
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    for (const text of ['TooManyRequests', 'Please retry', 'Tenant_Application'])
      assert.ok(!run.visible.includes(text), text);
  });

  it('retries a 503 after its Retry-After, a 504 once, and ends source_timeout on a second 504', async () => {
    vendors.graph.switches.script.push({ kind: 'unavailable', retryAfterS: 1 });
    assert.equal((await runSource(adapter())).terminal, 'complete 3');
    vendors.graph.switches.script.push({ kind: 'gateway_timeout' });
    assert.equal((await runSource(adapter())).terminal, 'complete 3');
    vendors.graph.switches.script.push({ kind: 'gateway_timeout' }, { kind: 'gateway_timeout' });
    assert.equal((await runSource(adapter())).terminal, 'source_timeout 0');
  });

  it('ends source_unavailable, keeping the first page, when a later page has no value array', async () => {
    vendors.graph.switches.script.push({ kind: 'pass' }, { kind: 'unreadable' });
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'source_unavailable 1');
    assert.equal(run.delivered, 100);
  });
});

describe('entra source against next-link spellings OData allows', { timeout: 30_000 }, () => {
  /** A Graph-like server of three pages (ids g0…g8), each linking on under the member name `spelling`. */
  async function pagesLinkedBy(spelling: string) {
    const server = await startLoopbackServer((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('$skiptoken') ?? '0');
      const value = [0, 1, 2].map((i) => ({ id: `g${page * 3 + i}`, displayName: `User ${page * 3 + i}` }));
      const link = `${server.origin}/v1.0/users?$skiptoken=${page + 1}`;
      sendJson(res, 200, { value, ...(page < 2 ? { [spelling]: link } : {}) });
    });
    return server;
  }

  for (const [name, spelling] of [
    ['OData 4.01 @nextLink', '@nextLink'],
    ['OData 3 odata.nextLink', 'odata.nextLink'],
    ['a proxy-cased @odata.NextLink', '@odata.NextLink'],
  ] as const) {
    it(`reads every page when the next link is spelled ${name}`, async () => {
      const server = await pagesLinkedBy(spelling);
      try {
        const run = await runSource(adapter(vendors.entraSpec({ graph_url: `${server.origin}/v1.0` })));
        assert.equal(run.delivered, 9);
        assert.match(String(run.terminal), /^complete/);
      } finally {
        await server.close();
      }
    });
  }

  it('fails source_unavailable on a page with two different next links or none readable as a list', async () => {
    for (const body of [
      { value: [{ id: 'a' }], '@odata.nextLink': 'http://127.0.0.1/a', '@nextLink': 'http://127.0.0.1/b' },
      { Values: [{ id: 'a' }] },
      { value: [{ id: 'a' }], '@odata.nextLink': 7 },
    ]) {
      const server = await startLoopbackServer((_req, res) => sendJson(res, 200, body));
      try {
        const run = await runSource(adapter(vendors.entraSpec({ graph_url: `${server.origin}/v1.0` })));
        assert.equal(run.terminal, 'source_unavailable 0', JSON.stringify(body));
      } finally {
        await server.close();
      }
    }
  });
});
