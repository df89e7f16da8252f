/**
 * Delta correctness of the source cache against a real Active Directory (the Samba AD DC of
 * `local/providers/ad`) and DynamoDB Local (no mocks): a full sync, then users added, modified and deleted
 * over LDAP by the domain administrator, then a delta sync that reads the changes (`whenChanged>=`) and the
 * tombstones; the baseline is compared with a fresh live listing of the same adapter (the oracle), and a
 * cached read (baseline plus delta) with a live read. A source whose account may not read tombstones reports
 * no deletions, says so once, and keeps syncing. Each run works in an OU of its own, removed afterwards, so
 * the cached directory the other AD tests read is left as it was. Skipped, with the reason printed, when
 * Samba or Java is not installed or another run holds Samba's fixed ports.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Attribute, Change, Client } from 'ldapts';
import type { RawRecord, SourceAdapter, SourceQuery } from '../../lambda/federation/index.js';
import { createCachedSource } from '../../lambda/sources/cache/cached-source.js';
import { changeFeedFor, kindMatchFor } from '../../lambda/sources/cache/index.js';
import type { BaselineStore, ChangeFeed } from '../../lambda/sources/cache/index.js';
import type { ProviderLogEntry, SourceSpec } from '../../lambda/sources/index.js';
import { createLdapSourceFactory } from '../../lambda/sources/ldap/index.js';
import {
  sambaMissing,
  startSambaAd,
  tombstoneReader,
  waitForSambaLock,
} from '../../local/providers/ad/index.js';
import type { LocalSambaAd } from '../../local/providers/ad/index.js';
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

const PREFIX = 'it-sync-ad-';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const PEOPLE = 30;

// Samba's ports are fixed: wait a while for another run (another AD test provisioning the DC, an `npm start`)
// to finish with it.
const java = needsJava();
const lock = sambaMissing() ?? (java === false ? await waitForSambaLock(240_000) : java);
let ad: LocalSambaAd | undefined;
let skip = typeof lock === 'string' ? lock : undefined;
// Started here, not in a hook: the first run on a machine provisions the domain (a minute or two).
if (typeof lock !== 'string')
  try {
    ad = await startSambaAd({ lock });
  } catch (error) {
    skip = `Samba AD DC did not start: ${error instanceof Error ? error.message : String(error)}`;
  }
after(() => ad?.stop());

/** This run's OU: its users' tombstones name it as their last parent, so no other run's count here. */
const OU = `OU=cache-oracle-${randomBytes(4).toString('hex')},DC=acme,DC=test`;
const userDn = (name: string) => `CN=${name},${OU}`;
/** An OU inside it, deleted with its user in the first test: their tombstones point at each other. */
const TEAM = `OU=team,${OU}`;

/** A user as the domain administrator adds one (no password: the account is created disabled). */
function user(name: string, index: number): Attribute[] {
  const values: Record<string, string | string[]> = {
    objectClass: ['top', 'person', 'organizationalPerson', 'user'],
    sAMAccountName: name,
    displayName: `Oracle Person ${index}`,
    givenName: 'Oracle',
    sn: `Person ${index}`,
    mail: `${name}@acme.example`,
    telephoneNumber: `+1 555 01${String(index).padStart(4, '0')}`,
  };
  return Object.entries(values).map(
    ([type, v]) => new Attribute({ type, values: Array.isArray(v) ? v : [v] }),
  );
}

/** Runs `change` as the domain administrator, straight to the DC. */
async function asAdmin(change: (client: Client) => Promise<void>): Promise<void> {
  const dc = ad!;
  const client = new Client({ url: dc.directUrl, timeout: 30_000, connectTimeout: 5000 });
  try {
    await client.bind(dc.adminDn, dc.adminPassword);
    await change(client);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

const replace = (type: string, value: string) =>
  new Change({ operation: 'replace', modification: new Attribute({ type, values: [value] }) });

/** An Active Directory source on this run's OU, bound as `account`, built as the function builds it. */
function adSource(
  sourceId: string,
  account: { bindDn: string; password: string },
  log?: (entry: ProviderLogEntry) => void,
): { adapter: SourceAdapter; feed: ChangeFeed } {
  const spec: SourceSpec = {
    source_id: sourceId,
    adapter: 'ldap',
    options: {
      url: ad!.url,
      base_dn: OU,
      bind_dn: account.bindDn,
      profile: 'active-directory',
      page_size: 20,
    },
    credential: { name: 'ACME_AD_PASSWORD', value: () => Promise.resolve(account.password) },
  };
  const adapter = createLdapSourceFactory({ allowLoopbackHttp: true, ...(log === undefined ? {} : { log }) })(
    spec,
  );
  return { adapter, feed: changeFeedFor(spec, adapter)! };
}

/** The record of the user `name` (an AD record's external id is its `objectGUID`). */
const named = (records: readonly RawRecord[], name: string) =>
  records.find((r) => r.attributes?.['samaccountname'] === name);

describe('the source cache against a real Active Directory (Samba AD DC)', { timeout: 300_000, skip }, () => {
  let baseline: LocalBaseline | undefined;
  let store: BaselineStore;
  let granted: { bindDn: string; password: string };

  before(async () => {
    baseline = await startLocalBaseline(PREFIX);
    store = baseline.store;
    granted = await tombstoneReader(ad!);
    await asAdmin(async (ldap) => {
      await ldap.add(OU, [new Attribute({ type: 'objectClass', values: ['top', 'organizationalUnit'] })]);
      for (let i = 1; i <= PEOPLE; i++) await ldap.add(userDn(`oracle${i}`), user(`oracle${i}`, i));
      await ldap.add(TEAM, [new Attribute({ type: 'objectClass', values: ['top', 'organizationalUnit'] })]);
      await ldap.add(`CN=oracle-team,${TEAM}`, user('oracle-team', 800));
    });
  });

  after(async () => {
    // Leaves first (the longest DNs), the OU last.
    await asAdmin(async (ldap) => {
      const { searchEntries } = await ldap.search(OU, { scope: 'sub', attributes: ['cn'] });
      const deepestFirst = searchEntries.map(({ dn }) => dn).sort((a, b) => b.length - a.length);
      for (const dn of deepestFirst) await ldap.del(dn);
    }).catch(() => undefined);
    await baseline?.stop();
  });

  it('keeps the baseline equal to a live listing through adds, modifies and deletes, without a full sync', async () => {
    // Prepare: the first sync is a full read
    const { adapter, feed } = adSource('acme-ad-oracle', granted);
    const sync = (fullEveryMs: number) => syncOnce('acme-ad-oracle', store, feed, fullEveryMs);
    const full = await sync(DAY);
    assert.equal(full.result, 'full');
    assert.equal(full.written, PEOPLE + 1);
    assert.deepEqual(
      inIdOrder(await baselineRecords(store, 'acme-ad-oracle')),
      inIdOrder(await liveListing(adapter)),
    );

    // Act: at the DC, over LDAP, one user added, one modified, one deleted, and an OU deleted with its user
    await asAdmin(async (ldap) => {
      await ldap.add(userDn('oracle-new'), user('oracle-new', 900));
      await ldap.modify(userDn('oracle2'), [replace('displayName', 'Changed Name')]);
      await ldap.del(userDn('oracle3'));
      await ldap.del(`CN=oracle-team,${TEAM}`);
      await ldap.del(TEAM);
    });
    const delta = await sync(DAY);

    // Assess: a delta, not a full read, and the deleted users are gone from the baseline already (the one
    // whose OU went too as well), and only they: earlier runs' tombstones stood in other OUs
    assert.equal(delta.result, 'delta');
    const live = await liveListing(adapter);
    assert.equal(live.length, PEOPLE);
    const afterDelta = await baselineRecords(store, 'acme-ad-oracle');
    assert.equal(named(afterDelta, 'oracle3'), undefined, 'the deleted user left with the delta');
    assert.equal(named(afterDelta, 'oracle-team'), undefined, 'so did the user deleted with its OU');
    assert.equal(delta.removed, 2);
    assert.deepEqual(inIdOrder(afterDelta), inIdOrder(live));
    assert.equal(named(afterDelta, 'oracle2')?.display_name, 'Changed Name');
    assert.equal(named(afterDelta, 'oracle-new')?.email, 'oracle-new@acme.example');
    assert.equal(feed.tombstones, true, 'an Active Directory source reports deletions');
  });

  it('answers a cached read (baseline, then the delta with its deletions) exactly as a live read', async () => {
    // Prepare: a fresh baseline, then changes over LDAP that only the delta can know
    const { adapter, feed } = adSource('acme-ad-read', granted);
    assert.equal((await syncOnce('acme-ad-read', store, feed, 0)).result, 'full');
    const word = 'Zyxw';
    await asAdmin(async (ldap) => {
      await ldap.add(userDn('oracle-joiner'), [
        ...user('oracle-joiner', 901).filter((a) => a.type !== 'displayName'),
        new Attribute({ type: 'displayName', values: [`${word} Joiner`] }),
      ]);
      await ldap.modify(userDn('oracle4'), [replace('displayName', `${word} Renamed`)]);
      await ldap.modify(userDn('oracle5'), [replace('mail', 'moved@acme.example')]);
      await ldap.del(userDn('oracle6'));
    });
    const cached = createCachedSource({
      live: adapter,
      sourceId: 'acme-ad-read',
      store,
      feed,
      match: kindMatchFor('ldap')!,
      policy: { refreshMs: HOUR, maxStalenessMs: HOUR },
    });
    const queries: SourceQuery[] = [
      { operation: 'search_people', query: word.toLowerCase() },
      { operation: 'search_people', query: 'Oracle Person 6' },
      { operation: 'search_people', query: 'oracle1@acme.example' },
      { operation: 'list_people' },
    ];

    // Act and assess
    await assertReadsAsLive(cached, adapter, queries);
    // The deleted user is still in the baseline; only the delta's tombstone keeps it out of the answer.
    assert.ok(named(await baselineRecords(store, 'acme-ad-read'), 'oracle6'));
    assert.equal((await read(cached, queries[1]!)).records.length, 0);
    assert.equal((await read(cached, queries[0]!)).records.length, 2);
  });

  it('reports no deletions, once and without failing, when the account may not read tombstones', async () => {
    // Prepare: the default reader, which has the default rights (no access to Deleted Objects)
    const dc = ad!;
    const logged: ProviderLogEntry[] = [];
    const { adapter, feed } = adSource(
      'acme-ad-plain',
      { bindDn: dc.bindDn, password: dc.bindPassword },
      (entry) => logged.push(entry),
    );
    const sync = (fullEveryMs: number) => syncOnce('acme-ad-plain', store, feed, fullEveryMs);
    assert.equal((await sync(DAY)).result, 'full');
    await asAdmin((ldap) => ldap.del(userDn('oracle7')));

    // Act: two deltas
    const first = await sync(DAY);
    const second = await sync(DAY);

    // Assess: both deltas succeed; the deleted user waits for the full sync; one info line, no failure line
    assert.deepEqual([first.result, second.result], ['delta', 'delta']);
    assert.equal(first.removed + second.removed, 0);
    assert.equal(feed.tombstones, false, 'the feed no longer claims to report deletions');
    assert.ok(named(await baselineRecords(store, 'acme-ad-plain'), 'oracle7'));
    assert.deepEqual(
      logged.map((entry) => [entry.event, entry.reason]),
      [['provider_tombstones_unreadable', 'tombstones_not_readable']],
    );
    // The periodic full sync still sweeps it.
    const periodic = await sync(0);
    assert.equal(periodic.result, 'full');
    assert.equal(periodic.removed, 1);
    assert.deepEqual(
      inIdOrder(await baselineRecords(store, 'acme-ad-plain')),
      inIdOrder(await liveListing(adapter)),
    );
  });
});
