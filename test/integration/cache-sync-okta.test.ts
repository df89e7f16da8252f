/**
 * Delta correctness for `okta` sources, with a live read as the oracle: a full sync through the Okta replay into
 * the baseline store on DynamoDB Local, then users created, updated, deprovisioned and deleted at the replay, a
 * delta sync (`lastUpdated ge`) and the periodic full sync. A deprovisioned user is a change of status like any
 * other: a live listing keeps `DEPROVISIONED` users (as inactive people), and so does the baseline. A user
 * deleted outright leaves no trace in a delta and waits for the sweep (docs/cache.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FederatedRecord, SourceAdapter, SourceQuery } from '../../lambda/federation/index.js';
import { createCachedSource } from '../../lambda/sources/cache/cached-source.js';
import { changeFeedFor } from '../../lambda/sources/cache/index.js';
import type { BaselineStore, ChangeFeed } from '../../lambda/sources/cache/index.js';
import { createOktaSource, oktaOptionsFromSpec } from '../../lambda/sources/okta/index.js';
import { oktaUser } from '../../local/providers/okta/users.js';
import {
  baselineRecords,
  federatedRead as read,
  inIdOrder,
  liveListing,
  startLocalBaseline,
  syncOnce,
} from '../helpers/cache-oracle.js';
import type { LocalBaseline } from '../helpers/cache-oracle.js';
import { javaSuite } from '../helpers/java.js';
import { startOAuthVendors } from '../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../helpers/oauth-vendors.js';

const PREFIX = 'it-sync-okta-';
const SOURCE = 'acme-okta';

describe('the source cache against the Okta replay', javaSuite(180_000), () => {
  let baseline: LocalBaseline | undefined;
  let vendors: OAuthVendors;
  let store: BaselineStore;
  let adapter: SourceAdapter;
  let feed: ChangeFeed;

  before(async () => {
    vendors = await startOAuthVendors(150);
    baseline = await startLocalBaseline(PREFIX);
    store = baseline.store;
    const spec = vendors.oktaSpec();
    adapter = createOktaSource(spec, oktaOptionsFromSpec(spec, true), { allowLoopbackHttp: true });
    feed = changeFeedFor(spec, adapter)!;
  });

  after(async () => {
    await baseline?.stop();
    await vendors?.close();
  });

  const sync = (fullEveryMs: number) => syncOnce(SOURCE, store, feed, fullEveryMs);

  it('keeps the baseline equal to a live listing through creates, updates, deprovisions and deletes', async () => {
    // Prepare: the first sync is a full read; the seeded DEPROVISIONED users are in it, as in a live listing
    const okta = vendors.okta;
    assert.ok(
      okta.users.some((u) => u.status === 'DEPROVISIONED'),
      'the replay seeds deprovisioned users',
    );
    const full = await sync(86_400_000);
    assert.equal(full.result, 'full');
    assert.equal(full.written, 150);
    const first = await liveListing(adapter);
    assert.equal(first.length, 150, 'a live listing keeps deprovisioned users');
    assert.deepEqual(inIdOrder(await baselineRecords(store, SOURCE)), inIdOrder(first));

    // Act: at Okta, one user created, one updated, one deprovisioned, one deleted outright
    const active = okta.users.filter((u) => u.status === 'ACTIVE');
    const [template, updated, deprovisioned, deleted] = active;
    assert.ok(template && updated && deprovisioned && deleted);
    const joiner = okta.upsert({
      ...oktaUser({ ...okta.people[0]!, id: 'u900001', email: 'new.hire@acme.example' }, okta.origin),
      profile: { ...template.profile, firstName: 'New', lastName: 'Hire', email: 'new.hire@acme.example' },
    });
    okta.upsert({ ...updated, profile: { ...updated.profile, lastName: 'Changed', title: 'Director' } });
    okta.upsert({ ...deprovisioned, status: 'DEPROVISIONED', statusChanged: new Date().toISOString() });
    okta.remove(deleted.id);
    const requestsBefore = okta.seen.length;
    const delta = await sync(86_400_000);

    // Assess: only `lastUpdated ge` was asked, the deprovisioned user is stored inactive, the deleted one waits
    assert.equal(delta.result, 'delta');
    const asked = okta.seen
      .slice(requestsBefore)
      .map((r) => new URL(r.url, okta.origin).searchParams.get('filter'));
    assert.ok(
      asked.every((f) => f?.startsWith('lastUpdated ge ') === true),
      JSON.stringify(asked),
    );
    assert.ok(delta.written >= 3 && delta.written <= 6, String(delta.written));
    assert.equal(delta.removed, 0);
    const afterDelta = await baselineRecords(store, SOURCE);
    const live = await liveListing(adapter);
    const inactive = afterDelta.find((r) => r.external_id === deprovisioned.id);
    assert.equal(inactive?.lifecycle, 'inactive', 'deprovisioned: kept, as a live read shows them');
    assert.equal(inactive?.attributes?.['okta_status'], 'DEPROVISIONED');
    assert.ok(afterDelta.some((r) => r.external_id === joiner.id));
    const waiting = afterDelta.find((r) => r.external_id === deleted.id);
    assert.ok(waiting, 'a user deleted outright waits for the full sync');
    assert.deepEqual(inIdOrder(afterDelta.filter((r) => r !== waiting)), inIdOrder(live));

    // Act: the periodic full sync (due at once here) sweeps the deleted user
    const periodic = await sync(0);
    assert.equal(periodic.result, 'full');
    assert.equal(periodic.removed, 1);
    assert.deepEqual(inIdOrder(await baselineRecords(store, SOURCE)), inIdOrder(await liveListing(adapter)));
    assert.equal((await store.readState(SOURCE))?.recordCount, 150 + 1 - 1);
  });

  it('answers a cached read (baseline, then the delta) as a live read, deprovisioned users included', async () => {
    // Prepare: a fresh baseline, then changes only the delta can know
    const okta = vendors.okta;
    assert.equal((await sync(0)).result, 'full');
    const [renamed, leaver] = okta.users.filter((u) => u.status === 'ACTIVE').slice(5);
    assert.ok(renamed && leaver);
    okta.upsert({ ...renamed, profile: { ...renamed.profile, firstName: 'Zyxw' } });
    okta.upsert({ ...leaver, profile: { ...leaver.profile, firstName: 'Zyxw' }, status: 'DEPROVISIONED' });
    const cached = createCachedSource({
      live: adapter,
      sourceId: SOURCE,
      store,
      feed,
      policy: { refreshMs: 3_600_000, maxStalenessMs: 3_600_000 },
    });

    // Act and assess: the same people, the deprovisioned one as inactive in both
    for (const query of [
      { operation: 'search_people', query: 'zyxw' },
      { operation: 'list_people' },
    ] satisfies SourceQuery[]) {
      const [fromCache, fromProvider] = [await read(cached, query), await read(adapter, query)];
      assert.equal(fromCache.metadata.retrieval_mode, 'cache_baseline_with_delta');
      assert.deepEqual(fromCache.records, fromProvider.records, JSON.stringify(query));
      const left: FederatedRecord | undefined = fromCache.records.find((r) =>
        r.sources.some((s) => s.external_id === leaver.id),
      );
      assert.equal(left?.lifecycle, 'inactive');
    }
  });
});
