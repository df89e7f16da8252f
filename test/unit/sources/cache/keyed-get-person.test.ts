/**
 * `get_person` over cached sources is a keyed read: the cluster is closed through the baselines' record-ref,
 * email and phone lookups (plus each delta), with uncached sources read in full, and the answer equals the
 * answer of a live read of every source.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { runFederation } from '../../../../lambda/federation/index.js';
import type { FederationResult, SourceAdapter, SourceQuery } from '../../../../lambda/federation/index.js';
import { createCachedSource } from '../../../../lambda/sources/cache/cached-source.js';
import { fullSync, MemoryBaselineStore, MemoryProvider } from '../../../helpers/memory-baseline.js';

const HOUR = 3_600_000;

let a: MemoryProvider;
let b: MemoryProvider;
let live: MemoryProvider;
let store: MemoryBaselineStore;

const read = (sources: SourceAdapter[], query: SourceQuery): Promise<FederationResult> =>
  runFederation({ sources, query, deadline: Date.now() + 2000, clock: () => 0 });

const cached = (provider: MemoryProvider, maxStalenessMs = HOUR): SourceAdapter =>
  createCachedSource({
    live: provider.live,
    sourceId: provider.source.source_identity,
    store,
    feed: provider.feed,
    policy: { refreshMs: HOUR, maxStalenessMs },
  });

/** The record_ref a live read gives the cluster holding `a`'s `external_id`. */
async function refOf(external_id: string): Promise<string> {
  const all = await read([a.live, b.live, live.live], { operation: 'list_people' });
  const cluster = all.records.find((r) =>
    r.sources.some((s) => s.source_identity === 'a' && s.external_id === external_id),
  );
  assert.ok(cluster !== undefined);
  return cluster.record_ref;
}

async function bothWays(recordRef: string) {
  const query: SourceQuery = { operation: 'get_person', record_ref: recordRef };
  const liveAnswer = await read([a.live, b.live, live.live], query);
  const before = a.liveReads + b.liveReads;
  const cachedAnswer = await read([cached(a), cached(b), live.live], query);
  return { liveAnswer, cachedAnswer, cachedSourceListings: a.liveReads + b.liveReads - before };
}

beforeEach(async () => {
  store = new MemoryBaselineStore();
  a = new MemoryProvider({ source_type: 'scim', source_identity: 'a' });
  b = new MemoryProvider({ source_type: 'ldap', source_identity: 'b' });
  live = new MemoryProvider({ source_type: 'hr', source_identity: 'live' });
  // A chain: a/ann —email— b/ann —phone— live/ann —email— a/ann2; and people who join nothing.
  a.upsert('ann', { email: 'Ann@Example.com' });
  b.upsert('ann', { email: 'ann@example.com', phone: '+44 20 7946 0001' });
  live.upsert('ann', { phone: '+442079460001', email: 'ann.other@example.com' });
  a.upsert('ann2', { email: 'ANN.OTHER@example.com' });
  for (let i = 0; i < 20; i++) {
    a.upsert(`x${i}`, { email: `x${i}@example.com` });
    b.upsert(`y${i}`, { email: `y${i}@example.com` });
  }
  await fullSync(store, 'a', a.feed);
  await fullSync(store, 'b', b.feed);
});

describe('get_person over cached sources', () => {
  it('closes the cluster through lookups and live records, equal to a live read, without listing a cached source', async () => {
    const { liveAnswer, cachedAnswer, cachedSourceListings } = await bothWays(await refOf('ann'));
    assert.equal(liveAnswer.records[0]?.sources.length, 4);
    assert.deepEqual(cachedAnswer.records, liveAnswer.records);
    assert.deepEqual(store.listed, []);
    assert.equal(cachedSourceListings, 0);
    assert.equal(cachedAnswer.metadata.retrieval_mode, 'cache_baseline_with_delta');
    assert.equal(cachedAnswer.metadata.completeness, 'complete');
  });

  it('applies the delta: a change at the provider after the sync breaks the chain as it does live', async () => {
    b.upsert('ann', { email: 'someone.else@example.com', phone: '+44 20 7946 0001' });
    const ref = await refOf('ann');
    const { liveAnswer, cachedAnswer } = await bothWays(ref);
    assert.equal(liveAnswer.records[0]?.sources.length, 1);
    assert.deepEqual(cachedAnswer.records, liveAnswer.records);
  });

  it('finds a person added at the provider after the sync through the delta', async () => {
    a.upsert('new', { phone: '+44 20 7946 0001' });
    const { liveAnswer, cachedAnswer } = await bothWays(await refOf('ann'));
    assert.equal(liveAnswer.records[0]?.sources.length, 5);
    assert.deepEqual(cachedAnswer.records, liveAnswer.records);
  });

  it('reads a source with a stale baseline in full, and still answers as live', async () => {
    const ref = await refOf('ann');
    const query: SourceQuery = { operation: 'get_person', record_ref: ref };
    const liveAnswer = await read([a.live, b.live, live.live], query);
    const before = b.liveReads;
    const cachedAnswer = await read([cached(a), cached(b, -1), live.live], query);
    assert.deepEqual(cachedAnswer.records, liveAnswer.records);
    assert.equal(b.liveReads - before, 1);
  });

  it('answers from the baselines with the source error when a delta fails', async () => {
    b.deltaFailure = new Error('provider down');
    const ref = await refOf('ann');
    const answer = await read([cached(a), cached(b), live.live], {
      operation: 'get_person',
      record_ref: ref,
    });
    assert.equal(answer.records[0]?.sources.length, 4);
    assert.deepEqual(answer.metadata.source_errors, [
      { source: { source_type: 'ldap', source_identity: 'b' }, error: { code: 'source_unavailable' } },
    ]);
    assert.equal(answer.metadata.retrieval_mode, 'cache_baseline');
  });
});
