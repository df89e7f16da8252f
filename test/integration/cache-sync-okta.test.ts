/**
 * Delta correctness for `okta` sources, with a live read as the oracle: a full sync through the Okta replay into
 * the baseline store on DynamoDB Local, then users created, updated, deprovisioned and deleted at the replay, a
 * delta sync (`lastUpdated ge`) and the periodic full sync. Okta names its deprovisioned users, so the feed
 * applies them as deletes at once; a user deleted outright leaves no trace and waits for the sweep
 * (docs/cache.md). A live listing keeps `DEPROVISIONED` users (as inactive people): the baseline must equal it
 * without them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RawRecord, SourceAdapter, SourceQuery } from '../../lambda/federation/index.js';
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

const isDeprovisioned = (record: RawRecord) => record.attributes?.['okta_status'] === 'DEPROVISIONED';
/** What the baseline must hold: a live listing without the users Okta names deprovisioned. */
const present = (records: readonly RawRecord[]) => records.filter((r) => !isDeprovisioned(r));

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
    // Prepare: the first sync is a full read; the seeded DEPROVISIONED users never enter the baseline
    const okta = vendors.okta;
    const seededGone = okta.users.filter((u) => u.status === 'DEPROVISIONED').length;
    assert.ok(seededGone > 0, 'the replay seeds deprovisioned users');
    const full = await sync(86_400_000);
    assert.equal(full.result, 'full');
    assert.equal(full.written, 150 - seededGone);
    const first = await liveListing(adapter);
    assert.equal(first.length, 150, 'a live listing keeps deprovisioned users');
    assert.deepEqual(inIdOrder(await baselineRecords(store, SOURCE)), inIdOrder(present(first)));

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

    // Assess: only `lastUpdated ge` was asked, the deprovisioned user left at once, the deleted one waits
    assert.equal(delta.result, 'delta');
    const asked = okta.seen
      .slice(requestsBefore)
      .map((r) => new URL(r.url, okta.origin).searchParams.get('filter'));
    assert.ok(
      asked.every((f) => f?.startsWith('lastUpdated ge ') === true),
      JSON.stringify(asked),
    );
    assert.ok(delta.written >= 2 && delta.written <= 5, String(delta.written));
    assert.equal(delta.removed, 1);
    const afterDelta = await baselineRecords(store, SOURCE);
    const live = await liveListing(adapter);
    assert.ok(!afterDelta.some((r) => r.external_id === deprovisioned.id), 'deprovisioned: deleted at once');
    assert.ok(afterDelta.some((r) => r.external_id === joiner.id));
    const waiting = afterDelta.find((r) => r.external_id === deleted.id);
    assert.ok(waiting, 'a user deleted outright waits for the full sync');
    assert.deepEqual(inIdOrder(afterDelta.filter((r) => r !== waiting)), inIdOrder(present(live)));

    // Act: the periodic full sync (due at once here) sweeps the deleted user
    const periodic = await sync(0);
    assert.equal(periodic.result, 'full');
    assert.equal(periodic.removed, 1);
    assert.deepEqual(
      inIdOrder(await baselineRecords(store, SOURCE)),
      inIdOrder(present(await liveListing(adapter))),
    );
    assert.equal((await store.readState(SOURCE))?.recordCount, 150 - seededGone - 1);
  });

  it('answers a cached read (baseline, then the delta) as a live read, less the deprovisioned users', async () => {
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
    const deprovisionedIds = new Set(okta.users.filter((u) => u.status === 'DEPROVISIONED').map((u) => u.id));
    const withoutDeprovisioned = (records: readonly { sources: readonly { external_id: string }[] }[]) =>
      records.filter((r) => !r.sources.some((s) => deprovisionedIds.has(s.external_id)));

    // Act and assess: the same people, except those Okta names deprovisioned (a live read shows them as
    // inactive; the cache applies them as deletes, as docs/cache.md says)
    for (const query of [
      { operation: 'search_people', query: 'zyxw' },
      { operation: 'list_people' },
    ] satisfies SourceQuery[]) {
      const [fromCache, fromProvider] = [await read(cached, query), await read(adapter, query)];
      assert.equal(fromCache.metadata.retrieval_mode, 'cache_baseline_with_delta');
      assert.deepEqual(fromCache.records, withoutDeprovisioned(fromProvider.records), JSON.stringify(query));
      assert.ok(fromProvider.records.some((r) => r.sources.some((s) => s.external_id === leaver.id)));
    }
  });
});
