/**
 * The `okta` adapter against what Okta itself publishes, as the Okta replay serves it (its sources are
 * cited in `local/providers/okta/`): a plain list and `q` leave DEPROVISIONED users out, `q` does not page,
 * every `UserStatus` has a lifecycle, users carry null, empty and unknown fields and sometimes no `credentials`,
 * `Link` header lines (one per relation) lead through empty pages, and a page that is not a user array, a
 * `504` or a `429` with `E0000047` each end the read the way the contract says.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { FederatedRecord } from '../../../../lambda/federation/index.js';
import type { SourceSpec } from '../../../../lambda/sources/index.js';
import type { ProviderSettings } from '../../../../lambda/sources/kernel/index.js';
import {
  ALL_USERS_FILTER,
  createOktaSource,
  oktaOptionsFromSpec,
} from '../../../../lambda/sources/okta/index.js';
import { startOAuthVendors } from '../../../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../../../helpers/oauth-vendors.js';
import { runSource } from '../../../helpers/source-run.js';
import type { SourceRun } from '../../../helpers/source-run.js';

const SETTINGS: ProviderSettings = { allowLoopbackHttp: true, retryJitterMs: [5, 10] };
let vendors: OAuthVendors;
before(async () => {
  vendors = await startOAuthVendors(250);
});
after(() => vendors.close());
afterEach(() => vendors.reset());

const adapter = (spec: SourceSpec = vendors.oktaSpec()) =>
  createOktaSource(spec, oktaOptionsFromSpec(spec, true), SETTINGS);
const requests = () => vendors.okta.seen.filter((r) => r.url.startsWith('/api/v1/users'));
const paramsOf = (url: string) => new URL(url, 'http://x').searchParams;
const records = (run: SourceRun): FederatedRecord[] =>
  run.events.flatMap((e) => (e.type === 'page' ? e.records : []));
const byExternalId = (run: SourceRun) => new Map(records(run).map((r) => [r.sources[0]!.external_id, r]));

/** Asks the replay directly, as any Okta client would, with a token the adapter's broker would get. */
async function askOkta(query: string): Promise<{ status: number; users: unknown[]; link: string | null }> {
  await runSource(adapter(), { operation: 'search_people', query: 'zz-warm-up' });
  const authorization = String(requests().at(-1)!.headers['authorization']);
  const response = await fetch(`${vendors.okta.origin}/api/v1/users?${query}`, {
    headers: { authorization },
  });
  const body = (await response.json()) as unknown;
  return {
    status: response.status,
    users: Array.isArray(body) ? body : [],
    link: response.headers.get('link'),
  };
}

describe('okta source against Okta-published shapes', { timeout: 60_000 }, () => {
  it('the replay, as the spec says, leaves DEPROVISIONED users out of a plain list and of q, not of a filter', async () => {
    const deprovisioned = vendors.okta.users.filter((u) => u.status === 'DEPROVISIONED');
    assert.ok(deprovisioned.length > 0);
    const plain = await askOkta('limit=200');
    assert.ok(plain.users.every((u) => (u as { status: string }).status !== 'DEPROVISIONED'));
    const filtered = await askOkta(`limit=200&filter=${encodeURIComponent(ALL_USERS_FILTER)}`);
    assert.ok(filtered.users.some((u) => (u as { status: string }).status === 'DEPROVISIONED'));
    // `q`: a prefix match, 10 by default, one page only (no rel="next").
    const q = await askOkta('q=a');
    assert.equal(q.users.length, 10);
    assert.ok(!/rel="next"/.test(q.link ?? ''));
  });

  it('reads DEPROVISIONED users too: every read of everyone sends the all-users filter, never q', async () => {
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    assert.equal(run.delivered, 250);
    const sent = paramsOf(requests().at(-1)!.url);
    assert.equal(sent.get('filter'), ALL_USERS_FILTER);
    assert.equal(sent.get('q'), null);
    await runSource(adapter(), { operation: 'get_person', record_ref: 'bos:person:0000' });
    assert.equal(paramsOf(requests().at(-1)!.url).get('filter'), ALL_USERS_FILTER);
    await runSource(adapter(), { operation: 'search_people', query: 'ada' });
    assert.equal(paramsOf(requests().at(-1)!.url).get('q'), null);
  });

  it('maps every Okta status onto the lifecycle, SUSPENDED apart from DEPROVISIONED', async () => {
    const run = await runSource(adapter());
    const got = byExternalId(run);
    const expected: Record<string, string> = {
      ACTIVE: 'active',
      LOCKED_OUT: 'active',
      PASSWORD_EXPIRED: 'active',
      RECOVERY: 'active',
      STAGED: 'pending',
      PROVISIONED: 'pending',
      SUSPENDED: 'suspended',
      DEPROVISIONED: 'inactive',
    };
    const seen = new Set<string>();
    for (const user of vendors.okta.users) {
      seen.add(user.status);
      assert.equal(got.get(user.id)?.lifecycle, expected[user.status], `${user.status} of ${user.id}`);
      assert.equal(got.get(user.id)?.attributes['okta_status'], user.status);
    }
    assert.deepEqual([...seen].sort(), Object.keys(expected).sort(), 'the replay serves every status');
  });

  it('reads users with null and empty profile values, unknown fields and no credentials', async () => {
    const run = await runSource(adapter());
    const got = byExternalId(run);
    const nullPhone = vendors.okta.users.find((u) => u.profile['mobilePhone'] === null)!;
    assert.equal(got.get(nullPhone.id)?.phone, null);
    const custom = vendors.okta.users.find((u) => u.profile['costCenter'] !== undefined)!;
    assert.equal(got.get(custom.id)?.attributes['costCenter'], undefined);
    const bare = vendors.okta.users.find((u) => u.credentials === undefined)!;
    assert.equal(got.get(bare.id)?.email, bare.profile['email']);
  });

  it('follows rel="next" on its own Link header line, through empty pages, to the last user', async () => {
    vendors.okta.switches.emptyPages = true;
    const before = requests().length;
    const run = await runSource(adapter());
    assert.equal(run.delivered, 250);
    assert.equal(run.terminal, 'complete 3');
    assert.equal(requests().length - before, 5, 'three pages and two empty ones');
  });

  it('ends source_unavailable, keeping the first page, when a later page is not a user array', async () => {
    vendors.okta.switches.script.push({ kind: 'pass' }, { kind: 'unreadable' });
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'source_unavailable 1');
    assert.equal(run.delivered, 100);
  });

  it('retries a 504 once, and ends source_timeout when it comes back', async () => {
    vendors.okta.switches.script.push({ kind: 'gateway_timeout' });
    assert.equal((await runSource(adapter())).terminal, 'complete 3');
    vendors.okta.switches.script.push({ kind: 'gateway_timeout' }, { kind: 'gateway_timeout' });
    assert.equal((await runSource(adapter())).terminal, 'source_timeout 0');
  });

  it('waits out a 429 E0000047 until X-Rate-Limit-Reset, with the headers Okta sends', async () => {
    vendors.okta.switches.script.push({ kind: 'throttle', retryAfterS: 1 });
    const run = await runSource(adapter());
    assert.equal(run.terminal, 'complete 3');
    assert.ok(!run.visible.includes('E0000047') && !run.visible.includes('exceeded rate limit'));
  });
});
