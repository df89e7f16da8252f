/**
 * The `entra` adapter through the real engine against the Graph replay, with app-only tokens from a real
 * authorization server (`oidc-provider`): paging by `@odata.nextLink`, page split, escaped `$filter`s,
 * advanced queries, the tenant check, throttling, outages, deadlines, disconnects and secrecy.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { createEntraSource, entraOptionsFromSpec } from '../../../../lambda/sources/entra/index.js';
import type { SourceSpec } from '../../../../lambda/sources/index.js';
import { SourceConfigError } from '../../../../lambda/sources/index.js';
import type { ProviderSettings } from '../../../../lambda/sources/kernel/index.js';
import { ENTRA_SECRET, startOAuthVendors, staticCredential } from '../../../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../../../helpers/oauth-vendors.js';
import { runSource } from '../../../helpers/source-run.js';

const SETTINGS: ProviderSettings = { allowLoopbackHttp: true, retryJitterMs: [5, 10] };
let vendors: OAuthVendors;
before(async () => {
  vendors = await startOAuthVendors(250);
});
after(() => vendors.close());
afterEach(() => vendors.reset());

const adapter = (spec: SourceSpec = vendors.entraSpec()) =>
  createEntraSource(spec, entraOptionsFromSpec(spec, true), SETTINGS);
const graphRequests = () => vendors.graph.seen.filter((r) => r.url.startsWith('/v1.0/users'));

describe('entra source', { timeout: 60_000 }, () => {
  it('reads every user across @odata.nextLink pages, with Graph ids as external ids', async () => {
    const before = graphRequests().length;
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    assert.equal(run.delivered, 250);
    assert.equal(graphRequests().length - before, 3);
    const first = run.events[0];
    assert.ok(first?.type === 'page');
    const ids = new Set(vendors.graph.users.map((u) => u['id']));
    assert.ok(first.records.every((r) => r.sources.every((s) => ids.has(s.external_id))));
  });

  it('asks for 999 per Graph page and delivers them 100 at a time', async () => {
    const run = await runSource(adapter(vendors.entraSpec({ page_size: 999 })));
    assert.equal(run.terminal, 'complete 3');
    assert.equal(run.largestPage, 100);
    assert.match(graphRequests().at(-1)!.url, /%24top=999/);
  });

  it('publishes the first delivery page before Graph has answered the last page', async () => {
    vendors.graph.switches.laterPageDelayMs = 400;
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    const last = graphRequests().at(-1)!;
    assert.ok(run.events[0]!.at < last.answeredAt!, 'first page was held back for the last provider page');
  });

  it('searches with startswith on name, mail and UPN, and a quote in the query stays data', async () => {
    const run = await runSource(adapter(), { operation: 'search_people', query: 'ada' });
    assert.equal(run.terminal?.startsWith('complete'), true);
    const url = new URL(graphRequests().at(-1)!.url, 'http://x');
    assert.equal(
      url.searchParams.get('$filter'),
      "startswith(displayName,'ada') or startswith(mail,'ada') or startswith(userPrincipalName,'ada')",
    );
    const expected = vendors.graph.users.filter((u) =>
      ['displayName', 'mail', 'userPrincipalName'].some((p) => String(u[p]).toLowerCase().startsWith('ada')),
    ).length;
    assert.ok(expected > 0);
    assert.equal(run.delivered, expected);

    const injection = "x') or startswith(displayName,'";
    const hostile = await runSource(adapter(), { operation: 'search_people', query: injection });
    assert.equal(hostile.terminal, 'complete 0'); // Graph answered 200 to the escaped filter: no user matches
    assert.match(new URL(graphRequests().at(-1)!.url, 'http://x').searchParams.get('$filter')!, /'x''\) or/);
  });

  it('sends ConsistencyLevel: eventual and $count=true for a mail-domain search', async () => {
    const run = await runSource(adapter(), { operation: 'search_people', query: '@example.com' });
    assert.equal(run.delivered, 250);
    const last = graphRequests().at(-1)!;
    assert.equal(last.headers['consistencylevel'], 'eventual');
    assert.match(last.url, /%24count=true/);
  });

  it('stops at a search limit', async () => {
    const run = await runSource(adapter(), { operation: 'search_people', query: '', limit: 30 });
    assert.equal(run.delivered, 30);
    assert.match(graphRequests().at(-1)!.url, /%24top=30/);
  });

  it('ends source_identity_mismatch when the token is for another tenant, before calling Graph', async () => {
    const before = graphRequests().length;
    const run = await runSource(adapter(vendors.entraSpec({ client_id: 'entra-foreign-app' })));
    assert.equal(run.terminal, 'source_identity_mismatch 0');
    assert.equal(graphRequests().length, before);
  });

  it('ends provider_authorization_required on a wrong client secret', async () => {
    const wrong = 'wrong-entra-secret-0123456789-abcdefghij';
    const run = await runSource(adapter(vendors.entraSpec({}, staticCredential('ACME_ENTRA_SECRET', wrong))));
    assert.equal(run.terminal, 'provider_authorization_required 0');
    assert.ok(!run.visible.includes(wrong));
  });

  it('waits out a 429 whose Retry-After fits the budget, and ends rate_limited when it does not', async () => {
    vendors.graph.switches.script.push({ kind: 'throttle', retryAfterS: 1 });
    const waited = await runSource(adapter());
    assert.equal(waited.terminal, 'complete 3');
    vendors.graph.switches.mode = 'throttle';
    vendors.graph.switches.retryAfterS = 120;
    const run = await runSource(adapter(), undefined, { budgetMs: 3000 });
    assert.equal(run.terminal, 'rate_limited 0');
  });

  it('ends source_unavailable on a Graph outage and on a token endpoint outage', async () => {
    vendors.graph.switches.mode = 'unavailable';
    assert.equal((await runSource(adapter())).terminal, 'source_unavailable 0');
    vendors.graph.switches.mode = 'ok';
    vendors.as.unavailable = true;
    assert.equal((await runSource(adapter())).terminal, 'source_unavailable 0');
  });

  it('ends source_unavailable when Graph refuses connections', async () => {
    const spec = vendors.entraSpec({ graph_url: 'http://127.0.0.1:9/v1.0' });
    assert.equal((await runSource(adapter(spec))).terminal, 'source_unavailable 0');
  });

  it('ends source_timeout on a slow page, keeping earlier pages, and Graph sees the request aborted', async () => {
    vendors.graph.switches.laterPageDelayMs = 5_000;
    const run = await runSource(adapter(), undefined, { budgetMs: 800 });
    assert.equal(run.terminal, 'source_timeout 1');
    assert.equal(run.delivered, 100);
    await waitFor(() => graphRequests().at(-1)!.aborted);
  });

  it('aborts the in-flight Graph request when the client disconnects', async () => {
    vendors.graph.switches.delayMs = 5_000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await runSource(adapter(), undefined, { signal: controller.signal });
    await waitFor(() => graphRequests().at(-1)!.aborted);
  });

  it('never lets a secret, token or provider message reach an event or log line', async () => {
    vendors.graph.switches.script.push({ kind: 'unavailable' }, { kind: 'unavailable' });
    const source = adapter();
    const runs = [await runSource(source), await runSource(source)];
    const token = lastBearerToken();
    for (const run of runs) {
      for (const needle of [
        ENTRA_SECRET,
        token.split('.')[1]!,
        'Service is temporarily unavailable',
        'serviceNotAvailable',
      ])
        assert.ok(!run.visible.includes(needle), `leaked ${needle.slice(0, 12)}…`);
    }
  });
});

describe('entra options', () => {
  it('names every bad option and refuses a definition without a credential', () => {
    const spec: SourceSpec = {
      source_id: 'bad-entra',
      adapter: 'entra',
      options: { tenant_id: '', client_id: 'a b', graph_url: 'ftp://graph', page_size: 1000, colour: 'red' },
    };
    assert.throws(
      () => entraOptionsFromSpec(spec, false),
      (error: unknown) => {
        assert.ok(error instanceof SourceConfigError);
        for (const name of ['tenant_id', 'client_id', 'graph_url', 'page_size', 'colour', 'credential_ref'])
          assert.ok(
            error.problems.some((p) => p.includes(name)),
            `${name}: ${error.problems.join('; ')}`,
          );
        return true;
      },
    );
  });

  it('defaults to Graph v1.0, the tenant token endpoint and the .default scope', () => {
    const options = entraOptionsFromSpec(
      {
        source_id: 'e',
        adapter: 'entra',
        credential: staticCredential('S', 'x'),
        options: { tenant_id: 'contoso.onmicrosoft.com', client_id: 'app' },
      },
      false,
    );
    assert.equal(options.graphUrl.href, 'https://graph.microsoft.com/v1.0');
    assert.equal(
      options.oauth.tokenUrl.href,
      'https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token',
    );
    assert.deepEqual(options.oauth.scopes, ['https://graph.microsoft.com/.default']);
    assert.equal(options.pageSize, 999);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) assert.fail('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The bearer token Graph last received (the one the adapter's broker holds). */
function lastBearerToken(): string {
  const header = vendors.graph.seen.at(-1)?.headers['authorization'];
  assert.equal(typeof header, 'string');
  return String(header).slice('Bearer '.length);
}
