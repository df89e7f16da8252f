/**
 * The read path of a cached source against the real local SCIM server and DynamoDB Local (no mocks): after a
 * full sync, people are added, changed and deleted at the provider; a cached read (baseline, then the delta since
 * its watermark) is compared with a live read of the same adapter (the oracle), for a search and a listing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SourceAdapter, SourceQuery } from '../../lambda/federation/index.js';
import { createCachedSource } from '../../lambda/sources/cache/cached-source.js';
import { adapterChangeFeed, syncSource } from '../../lambda/sources/cache/index.js';
import type { BaselineStore } from '../../lambda/sources/cache/index.js';
import { startScimServer } from '../../local/providers/scim/index.js';
import type { ScimServer } from '../../local/providers/scim/index.js';
import { federatedRead, localScimSource, startLocalBaseline } from '../helpers/cache-oracle.js';
import type { LocalBaseline } from '../helpers/cache-oracle.js';
import { javaSuite } from '../helpers/java.js';

const PREFIX = 'it-read-';
const HOUR = 3_600_000;

const nowSecond = (): string =>
  new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const read = federatedRead;

describe('a cached SCIM source read against a live read', javaSuite(240_000), () => {
  let baseline: LocalBaseline;
  let scim: ScimServer;
  let store: BaselineStore;
  let live: SourceAdapter;
  let cached: SourceAdapter;
  const feed = () => adapterChangeFeed(live);

  before(async () => {
    [baseline, scim] = await Promise.all([
      startLocalBaseline(PREFIX),
      startScimServer({ population: { name: 'acme-scim', size: 120, overlap: 0 } }),
    ]);
    store = baseline.store;
    live = localScimSource(scim);
    cached = createCachedSource({
      live,
      sourceId: 'acme-scim',
      store,
      feed: feed(),
      policy: { refreshMs: HOUR, maxStalenessMs: HOUR },
    });
  });

  after(async () => {
    await Promise.all([baseline?.stop(), scim?.close()]);
  });

  const sync = () =>
    syncSource({
      sourceId: 'acme-scim',
      store,
      feed: feed(),
      owner: 'it-reader',
      stopAt: Date.now() + 60_000,
      fullEveryMs: 0, // every sync a full read and sweep: how a source without tombstones loses its deleted people
    });

  it('answers as a live read after adds and changes (the delta) and after deletes (the next full sync)', async () => {
    // Prepare: a baseline
    assert.equal((await sync()).result, 'full');
    const [first, second, third] = scim.people;
    assert.ok(first && second && third);
    // A word of the second person's name, to search for after the change renames them.
    const word = 'Zyxw';
    scim.upsert({
      ...first,
      id: 'u900001',
      userName: 'new.zyxw',
      email: 'new.zyxw@acme.example',
      lastModified: nowSecond(),
    });
    scim.upsert({ ...second, displayName: `${word} Changed`, lastModified: nowSecond() });
    scim.upsert({ ...third, displayName: `${word} Renamed`, lastModified: nowSecond() });
    // A second address, which SCIM's `co` on emails.value compares as it does the primary one
    const [, , , fourth] = scim.people;
    assert.ok(fourth);
    scim.upsert({ ...fourth, otherEmails: ['alias.qqzz@old.example'], lastModified: nowSecond() });
    const queries: SourceQuery[] = [
      { operation: 'search_people', query: word.toLowerCase() },
      { operation: 'search_people', query: second.displayName },
      { operation: 'list_people' },
      // By containment at the server and here alike: a letter, mixed case, a diacritic, a name's middle
      ...[
        'a',
        'ZYXW',
        'zoë',
        'MÜLLER',
        'ller',
        second.familyName.slice(1),
        'alias.qq',
        'nobody-has-this',
      ].map((query) => ({ operation: 'search_people', query }) as const),
    ];

    // Act and assess: the delta brings the adds and changes in, and drops the changed people's old versions
    for (const query of queries) {
      const [fromCache, fromProvider] = [await read(cached, query), await read(live, query)];
      assert.deepEqual(fromCache.records, fromProvider.records, JSON.stringify(query));
      assert.equal(fromCache.metadata.retrieval_mode, 'cache_baseline_with_delta');
    }

    // Prepare: a deletion, which SCIM does not report in a delta; the next full sync removes it
    scim.remove(third.id);
    assert.equal((await sync()).result, 'full');
    for (const query of queries) {
      const [fromCache, fromProvider] = [await read(cached, query), await read(live, query)];
      assert.deepEqual(fromCache.records, fromProvider.records, JSON.stringify(query));
    }
  });
});
