/**
 * The source cache's sync: full and delta syncs of one source under its lease, a full read that stops at the
 * deadline and resumes from its checkpoint to the same baseline, an expired watermark falling back to a full
 * read, sweeps for feeds without tombstones, and a run that purges sources no longer cached.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceQuery,
} from '../../../../lambda/federation/index.js';
import {
  adapterChangeFeed,
  CACHE_KINDS,
  runSyncs,
  syncSource,
  WatermarkExpiredError,
} from '../../../../lambda/sources/cache/index.js';
import type { BaselineStore, ChangeBatch, ChangeFeed } from '../../../../lambda/sources/cache/index.js';
import { createFixtureSource } from '../../../../lambda/sources/index.js';
import type { SourceSpec } from '../../../../lambda/sources/index.js';
import { createMemoryBaselineStore } from '../../../helpers/memory-baseline-store.js';

const T0 = Date.parse('2026-12-06T12:00:00.000Z');
const oktaSpec: SourceSpec = { source_id: 'people', adapter: 'okta', options: {} };

function person(
  id: number,
  observedAt = '2026-12-06T10:00:00.000Z',
  overrides: Partial<RawRecord> = {},
): RawRecord {
  return {
    source_type: 'directory',
    source_identity: 'people',
    external_id: `u-${String(id).padStart(3, '0')}`,
    record_type: 'person',
    observed_at: observedAt,
    capabilities: ['read'],
    display_name: `Person ${id}`,
    ...overrides,
  };
}

/** A provider held in memory, read through a real adapter-shaped `read` that honours `updated_since`. */
function provider(initial: RawRecord[], pageSize = 10) {
  const people = new Map(initial.map((r) => [r.external_id, r]));
  const reads: SourceQuery[] = [];
  const adapter: SourceAdapter = {
    source: { source_type: 'directory', source_identity: 'people' },
    async *read(query: SourceQuery, { signal }: ReadOptions) {
      reads.push(query);
      const since = query.operation === 'list_people' ? query.updated_since : undefined;
      const hits = [...people.values()]
        .filter((r) => since === undefined || Date.parse(r.observed_at) >= Date.parse(since))
        .sort((a, b) => a.external_id.localeCompare(b.external_id));
      for (let at = 0; at < hits.length; at += pageSize) {
        signal.throwIfAborted();
        await Promise.resolve();
        yield hits.slice(at, at + pageSize);
      }
    },
  };
  return { people, reads, adapter };
}

async function baseline(store: BaselineStore, sourceId = 'people'): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const page of store.readPages(sourceId, 100, new AbortController().signal)) out.push(...page);
  return out;
}

function options(store: BaselineStore, feed: ChangeFeed, clock: { t: number }) {
  return {
    sourceId: 'people',
    store,
    feed,
    owner: 'worker-1',
    stopAt: Date.now() + 60_000,
    fullEveryMs: 86_400_000,
    now: () => clock.t,
  };
}

describe('a source’s sync', () => {
  it('reads the source in full first, then only what changed since the watermark', async () => {
    // Prepare
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    const { people, reads, adapter } = provider([person(1), person(2), person(3)]);
    const feed = adapterChangeFeed(adapter, { now: () => clock.t });
    // Act: full
    const first = await syncSource(options(store, feed, clock));
    // Assess
    assert.equal(first.result, 'full');
    assert.equal(first.written, 3);
    assert.deepEqual(await baseline(store), [person(1), person(2), person(3)]);
    const state = await store.readState('people');
    assert.equal(state?.status, 'ready');
    assert.equal(state?.recordCount, 3);
    assert.equal(state?.watermark, '2026-12-06T10:00:00.000Z');
    // Act: a change at the provider, then a delta
    clock.t += 600_000;
    people.set('u-002', person(2, '2026-12-06T12:05:00.000Z', { display_name: 'Renamed' }));
    const second = await syncSource(options(store, feed, clock));
    // Assess
    assert.equal(second.result, 'delta');
    assert.deepEqual(reads.at(-1), { operation: 'list_people', updated_since: '2026-12-06T10:00:00.000Z' });
    assert.equal((await baseline(store))[1]?.display_name, 'Renamed');
    assert.equal(second.baselineAgeMs, 0);
  });

  it('removes what a periodic full read no longer sees, for a feed without tombstones', async () => {
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    const { people, adapter } = provider([person(1), person(2), person(3)]);
    const feed = adapterChangeFeed(adapter, { now: () => clock.t });
    await syncSource(options(store, feed, clock));
    people.delete('u-002');
    // A delta cannot see a deletion...
    clock.t += 60_000;
    await syncSource(options(store, feed, clock));
    assert.equal((await baseline(store)).length, 3);
    // ...the full read a day later does, and the sweep removes it.
    clock.t += 86_400_000;
    const outcome = await syncSource(options(store, feed, clock));
    assert.equal(outcome.result, 'full');
    assert.equal(outcome.removed, 1);
    assert.deepEqual(
      (await baseline(store)).map((r) => r.external_id),
      ['u-001', 'u-003'],
    );
  });

  it('stores a person the provider lists as deprovisioned like any other change, as a live read shows them', async () => {
    // Prepare: the okta kind's feed over a provider that still lists a deprovisioned user (as Okta does)
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    const gone = { attributes: { okta_status: 'DEPROVISIONED' }, lifecycle: 'inactive' };
    const { people, adapter } = provider([person(1), person(2, undefined, gone)]);
    const feed = CACHE_KINDS['okta']!.feed(oktaSpec, adapter);
    assert.equal((await syncSource(options(store, feed, clock))).written, 2);
    // Act: a third person is deprovisioned at the provider, then a delta sync
    people.set('u-003', person(3, '2026-12-06T12:01:00.000Z', gone));
    clock.t += 120_000;
    const outcome = await syncSource(options(store, feed, clock));
    // Assess: nothing removed; both deprovisioned people are in the baseline, inactive
    assert.equal(outcome.result, 'delta');
    assert.equal(outcome.removed, 0);
    assert.deepEqual(
      (await baseline(store)).map((r) => [r.external_id, r.lifecycle ?? null]),
      [
        ['u-001', null],
        ['u-002', 'inactive'],
        ['u-003', 'inactive'],
      ],
    );
  });

  it('keeps the record count exact after every delta: new people added, deletions of held people subtracted, repeats counted once', async () => {
    // Prepare: a feed whose full read lists 1–3 and whose delta is scripted per test step
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    let delta: ChangeBatch[] = [];
    const feed: ChangeFeed = {
      tombstones: true,
      async *changes(watermark): AsyncIterable<ChangeBatch> {
        await Promise.resolve();
        if (watermark === undefined)
          yield { upserts: [person(1), person(2), person(3), person(2)], deletes: [], watermark: 'w' };
        else yield* delta;
      },
    };
    const counted = async () => (await store.readState('people'))?.recordCount;
    // Act: the full read, which listed 2 twice
    await syncSource(options(store, feed, clock));
    const afterFull = await counted();
    // Act: a delta re-delivering 1 (changed), adding 4 and 5, deleting 3 and an id never held
    delta = [
      { upserts: [person(1, undefined, { display_name: 'One' }), person(4)], deletes: ['u-003'] },
      { upserts: [person(4), person(5)], deletes: ['u-999'], watermark: 'w2' },
    ];
    clock.t += 60_000;
    const outcome = await syncSource(options(store, feed, clock));
    const afterDelta = await counted();
    // Act: the same delta delivered once more (a feed that re-sends from an older watermark)
    clock.t += 60_000;
    await syncSource(options(store, feed, clock));
    // Assess
    assert.equal(outcome.result, 'delta');
    assert.deepEqual([afterFull, afterDelta, await counted()], [3, 4, 4]);
    assert.equal((await baseline(store)).length, 4);
  });

  it('applies the deletions a provider keeps apart (Active Directory’s tombstones) before the changes, and still sweeps daily', async () => {
    // Prepare: a provider whose deletions are read apart from its people, and one person moved out of scope
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    const { people, adapter } = provider([person(1), person(2), person(3), person(4)]);
    const asked: string[] = [];
    let reported = true;
    const deleted: string[] = [];
    const feed = adapterChangeFeed(adapter, {
      now: () => clock.t,
      deletions: {
        get reported() {
          return reported;
        },
        async *deletedSince(watermark) {
          asked.push(watermark);
          await Promise.resolve();
          yield [...deleted];
        },
      },
    });
    assert.equal(feed.tombstones, true);
    await syncSource(options(store, feed, clock));
    assert.deepEqual(asked, [], 'a full read asks for no deletions');

    // Act: u-002 deleted; u-003 deleted and created again under the same id; u-004 leaves the scope unseen
    people.delete('u-002');
    people.set('u-003', person(3, '2026-12-06T12:01:00.000Z', { display_name: 'Again' }));
    people.delete('u-004');
    deleted.push('u-002', 'u-003');
    clock.t += 120_000;
    const outcome = await syncSource(options(store, feed, clock));

    // Assess: deletions at once from the watermark, the re-created person present
    assert.equal(outcome.result, 'delta');
    assert.deepEqual(asked, ['2026-12-06T10:00:00.000Z']);
    assert.deepEqual(
      (await baseline(store)).map((r) => `${r.external_id} ${r.display_name}`),
      ['u-001 Person 1', 'u-003 Again', 'u-004 Person 4'],
    );
    // ...and the day's full read sweeps what no delta can see, even while tombstones are reported
    clock.t += 86_400_000;
    const periodic = await syncSource(options(store, feed, clock));
    assert.equal(periodic.result, 'full');
    assert.deepEqual(
      (await baseline(store)).map((r) => r.external_id),
      ['u-001', 'u-003'],
    );
    // A provider that turned out unable to say reports no tombstones
    reported = false;
    assert.equal(feed.tombstones, false);
  });

  it('stops a full read at the deadline, and the next run resumes it to the same baseline as one uninterrupted read', async () => {
    // Prepare: 95 people in pages of 10; a read that pauses after the 4th page until the deadline passes
    const clock = { t: T0 };
    const everyone = Array.from({ length: 95 }, (_, i) => person(i + 1));
    const { adapter } = provider(everyone);
    const store = createMemoryBaselineStore(() => clock.t);
    let pagesRead = 0;
    const slow: SourceAdapter = {
      ...adapter,
      async *read(query, readOptions) {
        for await (const page of adapter.read(query, readOptions)) {
          pagesRead += 1;
          if (pagesRead === 5)
            await new Promise((_, reject) =>
              readOptions.signal.addEventListener('abort', () => reject(readOptions.signal.reason as Error)),
            );
          yield page;
        }
      },
    };
    const stopSoon = {
      ...options(store, adapterChangeFeed(slow, { now: () => clock.t }), clock),
      stopAt: Date.now() + 300,
      now: Date.now,
    };
    // Act: the first run is cut short
    const first = await syncSource(stopSoon);
    // Assess
    assert.equal(first.result, 'paused');
    assert.equal(first.written, 40);
    assert.equal((await store.readState('people'))?.status, 'syncing');
    assert.notEqual((await store.readState('people'))?.checkpoint, undefined);
    // Act: the next run continues (the provider's pages already stored are skipped, not written again)
    const second = await syncSource(
      options(store, adapterChangeFeed(adapter, { now: () => clock.t }), clock),
    );
    // Assess
    assert.equal(second.result, 'full');
    assert.equal(second.written, 55);
    const uninterrupted = createMemoryBaselineStore(() => clock.t);
    await syncSource(options(uninterrupted, adapterChangeFeed(adapter, { now: () => clock.t }), clock));
    assert.deepEqual(await baseline(store), await baseline(uninterrupted));
    const [resumed, plain] = [await store.readState('people'), await uninterrupted.readState('people')];
    assert.equal(resumed?.recordCount, 95);
    assert.deepEqual(
      { ...resumed, lastFullSyncAt: 0, lastDeltaSyncAt: 0 },
      { ...plain, lastFullSyncAt: 0, lastDeltaSyncAt: 0 },
    );
    assert.equal(resumed?.checkpoint, undefined);
  });

  it('falls back to a full read when the watermark has expired', async () => {
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    const calls: (string | undefined)[] = [];
    const feed: ChangeFeed = {
      tombstones: true,
      async *changes(watermark): AsyncIterable<ChangeBatch> {
        calls.push(watermark);
        await Promise.resolve();
        if (watermark === 'old-link') throw new WatermarkExpiredError('delta link expired');
        yield { upserts: [person(7)], deletes: [], watermark: 'new-link' };
      },
    };
    await store.writeState({
      sourceId: 'people',
      status: 'ready',
      recordCount: 0,
      watermark: 'old-link',
      lastFullSyncAt: new Date(T0).toISOString(),
    });
    const outcome = await syncSource(options(store, feed, clock));
    assert.deepEqual(calls, ['old-link', undefined]);
    assert.equal(outcome.result, 'full');
    assert.equal((await store.readState('people'))?.watermark, 'new-link');
  });

  it('drops a full read checkpoint the provider no longer honours, so the next run starts that read afresh', async () => {
    // Prepare: a full read paused at a provider link that has since expired
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    const resumedFrom: (string | undefined)[] = [];
    const feed: ChangeFeed = {
      tombstones: true,
      async *changes(_watermark, _options, resumeFrom): AsyncIterable<ChangeBatch> {
        resumedFrom.push(resumeFrom);
        await Promise.resolve();
        if (resumeFrom === 'expired-next-link') throw new WatermarkExpiredError('next link expired');
        yield { upserts: [person(3)], deletes: [], watermark: 'fresh-link' };
      },
    };
    await store.writeState({
      sourceId: 'people',
      status: 'syncing',
      recordCount: 0,
      checkpoint: JSON.stringify({ syncId: 'sync-1', feed: 'expired-next-link', written: 10 }),
    });
    // Act
    const first = await syncSource(options(store, feed, clock));
    const second = await syncSource(options(store, feed, clock));
    // Assess
    assert.equal(first.result, 'failed');
    assert.equal(second.result, 'full');
    assert.deepEqual(resumedFrom, ['expired-next-link', undefined]);
    assert.equal((await store.readState('people'))?.watermark, 'fresh-link');
  });

  it('leaves a source alone while another worker holds its lease', async () => {
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    await store.acquireLease('people', 'worker-0', 60_000);
    const outcome = await syncSource(options(store, adapterChangeFeed(provider([person(1)]).adapter), clock));
    assert.equal(outcome.result, 'busy');
    assert.equal(await store.readState('people'), undefined);
  });

  it('reports a provider failure by class and code, keeps the baseline, and frees the lease', async () => {
    const clock = { t: T0 };
    const store = createMemoryBaselineStore(() => clock.t);
    const { adapter } = provider([person(1)]);
    await syncSource(options(store, adapterChangeFeed(adapter, { now: () => clock.t }), clock));
    const failing: SourceAdapter = {
      ...adapter,
      // eslint-disable-next-line require-yield
      async *read() {
        await Promise.resolve();
        throw Object.assign(new Error('token=abc provider said no'), {
          name: 'SourceError',
          code: 'rate_limited',
        });
      },
    };
    clock.t += 60_000;
    const outcome = await syncSource(options(store, adapterChangeFeed(failing), clock));
    assert.equal(outcome.result, 'failed');
    assert.equal(outcome.errorCode, 'rate_limited');
    assert.doesNotMatch(JSON.stringify(outcome), /token=abc/);
    assert.equal((await baseline(store)).length, 1);
    assert.equal((await store.readState('people'))?.status, 'ready');
    assert.notEqual(await store.acquireLease('people', 'worker-2', 1000), undefined);
  });
});

describe('a sync run', () => {
  const spec = (id: string, cached: boolean): SourceSpec => ({
    source_id: id,
    adapter: 'fixture',
    options: {},
    ...(cached ? { cache: { refreshMs: 300_000, maxStalenessMs: 3_600_000 } } : {}),
  });
  const fixture = (id: string) =>
    createFixtureSource({ source_type: 'hr', source_identity: id, recordCount: 30 });

  it('syncs every cached source, only those, and purges baselines of sources no longer cached', async () => {
    const store = createMemoryBaselineStore();
    await store.writeState({ sourceId: 'gone', status: 'ready', recordCount: 1 });
    await store.put('gone', [person(1)], 'sync-gone');
    const result = await runSyncs({
      sources: [
        { spec: spec('a', true), adapter: fixture('a') },
        { spec: spec('b', false), adapter: fixture('b') },
      ],
      store,
      owner: 'w',
      stopAt: Date.now() + 30_000,
    });
    assert.deepEqual(
      result.outcomes.map((o) => [o.sourceId, o.result, o.written]),
      [['a', 'full', 30]],
    );
    assert.deepEqual(result.purged, ['gone']);
    assert.deepEqual(await store.sourceIds(), ['a']);
    assert.deepEqual(await baseline(store, 'gone'), []);
  });

  it('leaves a source synced within its refresh alone on a scheduled run, not when an event names it', async () => {
    const store = createMemoryBaselineStore();
    const sources = [{ spec: spec('a', true), adapter: fixture('a') }];
    const run = (only?: string[]) =>
      runSyncs({ sources, store, owner: 'w', stopAt: Date.now() + 30_000, ...(only ? { only } : {}) });
    assert.deepEqual(
      (await run()).outcomes.map((o) => o.result),
      ['full'],
    );
    assert.deepEqual(
      (await run()).outcomes.map((o) => o.result),
      ['fresh'],
    );
    assert.deepEqual(
      (await run(['a'])).outcomes.map((o) => o.result),
      ['delta'],
    );
  });

  it('syncs only the sources an event names, and purges nothing then', async () => {
    const store = createMemoryBaselineStore();
    await store.writeState({ sourceId: 'gone', status: 'ready', recordCount: 1 });
    const result = await runSyncs({
      sources: [
        { spec: spec('a', true), adapter: fixture('a') },
        { spec: spec('c', true), adapter: fixture('c') },
      ],
      store,
      only: ['c'],
      owner: 'w',
      stopAt: Date.now() + 30_000,
    });
    assert.deepEqual(
      result.outcomes.map((o) => o.sourceId),
      ['c'],
    );
    assert.deepEqual(result.purged, []);
  });

  it('leaves sources for the next run when too little time is left', async () => {
    const late = await runSyncs({
      sources: [{ spec: spec('a', true), adapter: fixture('a') }],
      store: createMemoryBaselineStore(),
      owner: 'w',
      stopAt: Date.now() + 1000,
    });
    assert.deepEqual(late.deferred, ['a']);
    assert.deepEqual(late.outcomes, []);
  });

  it('purges nothing for a directory without sources (one that could not be read)', async () => {
    const store = createMemoryBaselineStore();
    await store.writeState({ sourceId: 'kept', status: 'ready', recordCount: 1 });
    const empty = await runSyncs({ sources: [], store, owner: 'w', stopAt: Date.now() + 30_000 });
    assert.deepEqual(empty.purged, []);
    assert.deepEqual(await store.sourceIds(), ['kept']);
  });
});
