/**
 * Delta correctness of the source cache against a real OpenLDAP slapd and DynamoDB Local (no mocks): a full
 * sync, then entries added, modified and deleted over LDAP by the directory's administrator, then a delta sync
 * (`modifyTimestamp>=`), then the periodic full sync and sweep; the baseline is compared with a fresh live
 * listing of the same adapter (the oracle), and a cached read (baseline plus delta) with a live read.
 * Skipped, with the reason printed, when slapd or Java is not installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Attribute, Change, Client } from 'ldapts';
import type { RawRecord, SourceAdapter, SourceQuery } from '../../lambda/federation/index.js';
import { createCachedSource } from '../../lambda/sources/cache/cached-source.js';
import { changeFeedFor, kindMatchFor } from '../../lambda/sources/cache/index.js';
import type { BaselineStore, ChangeFeed } from '../../lambda/sources/cache/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';
import { createLdapSource, ldapOptionsFromSpec } from '../../lambda/sources/ldap/index.js';
import { LDAP_PEOPLE_DN, slapdPath, startSlapd } from '../../local/providers/ldap/index.js';
import type { LocalSlapd } from '../../local/providers/ldap/index.js';
import {
  assertReadsAsLive,
  baselineRecords,
  federatedRead as read,
  inIdOrder,
  liveListing,
  startLocalBaseline,
  syncOnce,
} from '../helpers/cache-oracle.js';
import type { LocalBaseline } from '../helpers/cache-oracle.js';
import { needsJava } from '../helpers/java.js';

const PREFIX = 'it-sync-ldap-';
const SOURCE = 'acme-ldap';
const HOUR = 3_600_000;

/** Runs `change` as the directory's administrator, straight to slapd. */
async function asAdmin(slapd: LocalSlapd, change: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ url: slapd.admin.url, timeout: 10_000, connectTimeout: 5000 });
  try {
    await client.bind(slapd.admin.rootDn, slapd.admin.rootPassword);
    await change(client);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** A change of the entry's `cn`, the standard profile's display name. */
const rename = (name: string) =>
  new Change({
    operation: 'replace',
    modification: new Attribute({ type: 'cn', values: [name] }),
  });

/** The record of the entry `uid` (an LDAP record's external id is its `entryUUID`). */
const entry = (records: readonly RawRecord[], uid: string) =>
  records.find((r) => r.attributes?.['uid'] === uid);

const skip =
  slapdPath() === undefined ? 'slapd is not installed (apt-get install slapd ldap-utils)' : needsJava();

describe('the source cache against a real slapd', { timeout: 240_000, skip }, () => {
  let baseline: LocalBaseline | undefined;
  let slapd: LocalSlapd;
  let store: BaselineStore;
  let adapter: SourceAdapter;
  let feed: ChangeFeed;

  before(async () => {
    [baseline, slapd] = await Promise.all([
      startLocalBaseline(PREFIX),
      startSlapd({ population: { name: SOURCE, size: 120, overlap: 0 } }),
    ]);
    store = baseline.store;
    const spec: SourceSpec = {
      source_id: SOURCE,
      adapter: 'ldap',
      options: { url: slapd.url, base_dn: slapd.baseDn, bind_dn: slapd.bindDn, page_size: 50 },
      credential: { name: 'ACME_LDAP_PASSWORD', value: () => Promise.resolve(slapd.bindPassword) },
    };
    adapter = createLdapSource(spec, ldapOptionsFromSpec(spec), { allowLoopbackHttp: true });
    feed = changeFeedFor(spec, adapter)!;
  });

  after(async () => {
    await Promise.all([baseline?.stop(), slapd?.stop()]);
  });

  const sync = (fullEveryMs: number) => syncOnce(SOURCE, store, feed, fullEveryMs);

  it('keeps the baseline equal to a live listing through adds, modifies and deletes', async () => {
    // Prepare: the first sync is a full read
    assert.equal(feed.tombstones, false, 'an LDAP directory reports no deletions');
    const full = await sync(86_400_000);
    assert.equal(full.result, 'full');
    assert.equal(full.written, 120);
    assert.deepEqual(inIdOrder(await baselineRecords(store, SOURCE)), inIdOrder(await liveListing(adapter)));

    // Act: at the directory, over LDAP, one entry added, one modified, one deleted
    const [, second, third] = slapd.people;
    assert.ok(second && third);
    await asAdmin(slapd, async (ldap) => {
      await ldap.add(`uid=u900001,${LDAP_PEOPLE_DN}`, {
        objectClass: 'inetOrgPerson',
        uid: 'u900001',
        cn: 'New Hire',
        sn: 'Hire',
        givenName: 'New',
        displayName: 'New Hire',
        mail: 'new.hire@acme.example',
        telephoneNumber: '+44 20 7946 0999',
      });
      await ldap.modify(`uid=${second.id},${LDAP_PEOPLE_DN}`, [rename('Changed Name')]);
      await ldap.del(`uid=${third.id},${LDAP_PEOPLE_DN}`);
    });
    const delta = await sync(86_400_000);

    // Assess: the delta read only what changed (plus whoever shares the watermark's second: `>=` reads it
    // again), never the directory; the deleted entry waits for the full sync, as docs/cache.md says.
    assert.equal(delta.result, 'delta');
    assert.ok(delta.written >= 2 && delta.written <= 5, String(delta.written));
    assert.equal(delta.removed, 0);
    const afterDelta = await baselineRecords(store, SOURCE);
    const live = await liveListing(adapter);
    assert.equal(live.length, 120);
    const deleted = entry(afterDelta, third.id);
    assert.ok(deleted, 'the deleted entry waits for the full sync');
    assert.deepEqual(inIdOrder(afterDelta.filter((r) => r !== deleted)), inIdOrder(live));
    assert.equal(entry(afterDelta, second.id)?.display_name, 'Changed Name');
    assert.equal(entry(afterDelta, 'u900001')?.email, 'new.hire@acme.example');

    // Act: the periodic full sync (due at once here) sweeps the deletion
    const periodic = await sync(0);
    assert.equal(periodic.result, 'full');
    assert.equal(periodic.removed, 1);
    assert.deepEqual(inIdOrder(await baselineRecords(store, SOURCE)), inIdOrder(await liveListing(adapter)));
    assert.equal((await store.readState(SOURCE))?.recordCount, 120);
  });

  it('answers a cached read (baseline, then the delta) exactly as a live read', async () => {
    // Prepare: a fresh baseline, then changes over LDAP that only the delta can know
    assert.equal((await sync(0)).result, 'full');
    const [first, , , fourth, fifth] = slapd.people;
    assert.ok(first && fourth && fifth);
    const word = 'Zyxw';
    await asAdmin(slapd, async (ldap) => {
      await ldap.add(`uid=u900002,${LDAP_PEOPLE_DN}`, {
        objectClass: 'inetOrgPerson',
        uid: 'u900002',
        cn: `${word} Joiner`,
        sn: 'Joiner',
        displayName: `${word} Joiner`,
        mail: 'zyxw.joiner@acme.example',
      });
      await ldap.modify(`uid=${fourth.id},${LDAP_PEOPLE_DN}`, [rename(`${word} Renamed`)]);
      await ldap.modify(`uid=${fifth.id},${LDAP_PEOPLE_DN}`, [
        new Change({
          operation: 'replace',
          modification: new Attribute({ type: 'mail', values: ['moved@acme.example'] }),
        }),
      ]);
    });
    const cached = createCachedSource({
      live: adapter,
      sourceId: SOURCE,
      store,
      feed,
      match: kindMatchFor('ldap')!,
      policy: { refreshMs: HOUR, maxStalenessMs: HOUR },
    });
    const queries: SourceQuery[] = [
      { operation: 'search_people', query: word.toLowerCase() },
      { operation: 'search_people', query: fourth.displayName },
      { operation: 'search_people', query: first.email },
      { operation: 'list_people' },
      // Substring matches at slapd and here alike: a letter, mixed case, a diacritic, a name's middle; a uid,
      // which the directory's search does not compare
      ...[
        'a',
        'ZYXW',
        'zoë',
        'ZOE\u0308',
        'MÜLLER',
        'ller',
        fourth.familyName.slice(1),
        first.id,
        'nobody-has-this',
      ].map((query) => ({ operation: 'search_people', query }) as const),
    ];

    // Act and assess
    await assertReadsAsLive(cached, adapter, queries);
    // The joiner and the renamed entry exist only at the directory and in the delta, never in the baseline.
    assert.equal((await read(cached, queries[0]!)).records.length, 2);
  });
});
