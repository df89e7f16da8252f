/**
 * The `okta` adapter through the real engine against the Okta replay, with service-app tokens from a real
 * authorization server (`oidc-provider`, `private_key_jwt`): `Link` paging, escaped `search`
 * expressions, `lastUpdated`, the org check, `X-Rate-Limit-Reset` waits, outages, deadlines, disconnects
 * and secrecy.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { SourceSpec } from '../../../../lambda/sources/index.js';
import { SourceConfigError } from '../../../../lambda/sources/index.js';
import type { ProviderSettings } from '../../../../lambda/sources/kernel/index.js';
import {
  createOktaSource,
  oktaOptionsFromSpec,
  oktaSearchFor,
} from '../../../../lambda/sources/okta/index.js';
import { startOAuthVendors, staticCredential } from '../../../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../../../helpers/oauth-vendors.js';
import { runSource } from '../../../helpers/source-run.js';

const SETTINGS: ProviderSettings = { allowLoopbackHttp: true, retryJitterMs: [5, 10] };
let vendors: OAuthVendors;
before(async () => {
  vendors = await startOAuthVendors(250);
});
after(() => vendors.close());
afterEach(() => vendors.reset());

const adapter = (spec: SourceSpec = vendors.oktaSpec()) =>
  createOktaSource(spec, oktaOptionsFromSpec(spec, true), SETTINGS);
const oktaRequests = () => vendors.okta.seen.filter((r) => r.url.startsWith('/api/v1/users'));
const lastParam = (name: string) => new URL(oktaRequests().at(-1)!.url, 'http://x').searchParams.get(name);
const lastSearch = () => lastParam('search');

describe('okta source', { timeout: 60_000 }, () => {
  it('reads every user across Link rel="next" pages, with lastUpdated as observed_at', async () => {
    const before = oktaRequests().length;
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    assert.equal(run.delivered, 250);
    assert.equal(oktaRequests().length - before, 3);
    const byId = new Map(vendors.okta.users.map((u) => [u.id, u]));
    const page = run.events[0]!;
    assert.ok(page.type === 'page');
    for (const record of page.records)
      for (const entry of record.sources)
        assert.equal(entry.observed_at, byId.get(entry.external_id)?.lastUpdated);
  });

  it('asks for 200 per page and delivers them 100 at a time', async () => {
    const run = await runSource(adapter(vendors.oktaSpec({ page_size: 200 })));
    assert.equal(run.terminal, 'complete 3');
    assert.equal(run.largestPage, 100);
    assert.match(oktaRequests().at(-1)!.url, /limit=200/);
  });

  it('publishes the first delivery page before Okta has answered the last page', async () => {
    vendors.okta.switches.laterPageDelayMs = 400;
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    assert.ok(run.events[0]!.at < oktaRequests().at(-1)!.answeredAt!);
  });

  it('searches by prefix on names, email and login, with quotes and backslashes kept as data', async () => {
    const run = await runSource(adapter(), { operation: 'search_people', query: 'ada' });
    const expected = vendors.okta.users.filter((u) =>
      ['firstName', 'lastName', 'email', 'login'].some((k) => u.profile[k]?.toLowerCase().startsWith('ada')),
    ).length;
    assert.ok(expected > 0);
    assert.equal(run.delivered, expected);
    assert.equal(
      lastSearch(),
      'profile.firstName sw "ada" or profile.lastName sw "ada" or profile.email sw "ada" or profile.login sw "ada"',
    );
    const hostile = 'x" or profile.login pr or profile.login eq "\\';
    const injected = await runSource(adapter(), { operation: 'search_people', query: hostile });
    assert.equal(injected.terminal, 'complete 0'); // Okta parsed it (200) and nobody matches the literal
    assert.ok(lastSearch()!.includes('sw "x\\" or profile.login pr or profile.login eq \\"\\\\"'));
  });

  it('asks for users updated since a time with the filter lastUpdated ge', async () => {
    const since = '2026-10-20T00:00:00.000Z';
    const run = await runSource(adapter(), { operation: 'list_people', updated_since: since });
    assert.equal(lastParam('filter'), `lastUpdated ge "${since}"`);
    assert.equal(lastSearch(), null);
    assert.equal(run.delivered, vendors.okta.users.filter((u) => u.lastUpdated >= since).length);
  });

  it('ends source_identity_mismatch when users name another org, publishing none of that page', async () => {
    vendors.okta.switches.foreignIdentity = true;
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'source_identity_mismatch 0');
    assert.equal(run.delivered, 0);
  });

  it('ends provider_authorization_required for an unregistered key and for a token without okta.users.read', async () => {
    const { generateKeyPair, exportPKCS8 } = await import('jose');
    const other = await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey);
    const wrongKey = await runSource(adapter(vendors.oktaSpec({}, staticCredential('ACME_OKTA_KEY', other))));
    assert.equal(wrongKey.terminal, 'provider_authorization_required 0');
    assert.ok(!wrongKey.visible.includes(other.slice(30, 90)));
    const noScope = await runSource(
      adapter(vendors.oktaSpec({ client_id: 'okta-groups-svc', scopes: ['okta.groups.read'] })),
    );
    assert.equal(noScope.terminal, 'provider_authorization_required 0');
    assert.equal(oktaRequests().at(-1)!.aborted, false); // Okta itself answered 403
  });

  it('waits until X-Rate-Limit-Reset when it fits the budget, and ends rate_limited when it does not', async () => {
    vendors.okta.switches.script.push({ kind: 'throttle', retryAfterS: 1 });
    const started = Date.now();
    const waited = await runSource(adapter());
    assert.equal(waited.terminal, 'complete 3');
    assert.ok(Date.now() - started >= 1000, 'the reset was not waited for');
    vendors.okta.switches.mode = 'throttle';
    vendors.okta.switches.retryAfterS = 60;
    assert.equal((await runSource(adapter(), undefined, { budgetMs: 3000 })).terminal, 'rate_limited 0');
  });

  it('ends source_unavailable on an Okta outage and when Okta refuses connections', async () => {
    vendors.okta.switches.mode = 'unavailable';
    assert.equal((await runSource(adapter())).terminal, 'source_unavailable 0');
    const closed = vendors.oktaSpec({ org_url: 'http://127.0.0.1:9' });
    assert.equal((await runSource(adapter(closed))).terminal, 'source_unavailable 0');
  });

  it('ends source_timeout on a slow page, keeping earlier pages, and Okta sees the request aborted', async () => {
    vendors.okta.switches.laterPageDelayMs = 5_000;
    const run = await runSource(adapter(), undefined, { budgetMs: 800 });
    assert.equal(run.terminal, 'source_timeout 1');
    assert.equal(run.delivered, 100);
    await waitFor(() => oktaRequests().at(-1)!.aborted);
  });

  it('aborts the in-flight Okta request when the client disconnects', async () => {
    vendors.okta.switches.delayMs = 5_000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await runSource(adapter(), undefined, { signal: controller.signal });
    await waitFor(() => oktaRequests().at(-1)!.aborted);
  });

  it('never lets the private key, token or an Okta error summary reach an event or log line', async () => {
    vendors.okta.switches.script.push({ kind: 'unavailable' }, { kind: 'unavailable' });
    const source = adapter();
    const runs = [await runSource(source), await runSource(source)];
    const header = oktaRequests().at(-1)!.headers['authorization'];
    const token = String(header).slice('Bearer '.length);
    for (const run of runs)
      for (const needle of [
        vendors.oktaKey.slice(40, 100),
        token.split('.')[1]!,
        'Internal Server Error',
        'E0000009',
      ])
        assert.ok(!run.visible.includes(needle), `leaked ${needle.slice(0, 12)}…`);
  });
});

describe('okta options and search expressions', () => {
  it('names every bad option', () => {
    const spec: SourceSpec = {
      source_id: 'bad-okta',
      adapter: 'okta',
      options: {
        org_url: 'https://acme.okta.com/api',
        client_id: '',
        page_size: 201,
        auth_method: 'password',
      },
    };
    assert.throws(
      () => oktaOptionsFromSpec(spec, false),
      (error: unknown) => {
        assert.ok(error instanceof SourceConfigError);
        for (const name of ['org_url', 'client_id', 'page_size', 'auth_method', 'credential_ref'])
          assert.ok(
            error.problems.some((p) => p.includes(name)),
            `${name}: ${error.problems.join('; ')}`,
          );
        return true;
      },
    );
  });

  it('defaults to the org token endpoint, private_key_jwt and okta.users.read', () => {
    const options = oktaOptionsFromSpec(
      {
        source_id: 'o',
        adapter: 'okta',
        credential: staticCredential('K', 'x'),
        options: { org_url: 'https://acme.okta.com', client_id: '0oa1' },
      },
      false,
    );
    assert.equal(options.oauth.tokenUrl.href, 'https://acme.okta.com/oauth2/v1/token');
    assert.equal(options.oauth.authMethod, 'private_key_jwt');
    assert.deepEqual(options.oauth.scopes, ['okta.users.read']);
    assert.equal(options.pageSize, 200);
  });

  it('matches two words as first and last name', () => {
    assert.match(
      oktaSearchFor({ operation: 'search_people', query: 'Ada Berg' })!,
      /\(profile\.firstName sw "Ada" and profile\.lastName sw "Berg"\)$/,
    );
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) assert.fail('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
