/**
 * The cached source's read path, through the real engine: baseline first, the delta applied, the final
 * result equal to a live read's; a stale, missing or unreadable baseline reads live; a failed delta leaves
 * the baseline with the source's error.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { runFederation, SourceError } from '../../../../lambda/federation/index.js';
import type { FederationEvent, SourceAdapter, SourceQuery } from '../../../../lambda/federation/index.js';
import { createCachedSource } from '../../../../lambda/sources/cache/cached-source.js';
import type { CachedSourceOptions } from '../../../../lambda/sources/cache/cached-source.js';
import { fullSync, MemoryBaselineStore, MemoryProvider } from '../../../helpers/memory-baseline.js';

const SOURCE = { source_type: 'scim', source_identity: 'acme-scim' };
const HOUR = 3_600_000;
const NOW = Date.parse('2026-10-08T13:00:00Z');

async function read(adapter: SourceAdapter, query: SourceQuery) {
  const events: FederationEvent[] = [];
  const result = await runFederation({
    sources: [adapter],
    query,
    deadline: Date.now() + 2000,
    clock: () => NOW,
    onEvent: (e) => void events.push(e),
  });
  return { events, result };
}

const origins = (events: FederationEvent[]) =>
  events.map((e) => (e.type === 'page' ? (e.origin ?? 'live') : e.type));

let provider: MemoryProvider;
let store: MemoryBaselineStore;

function cached(overrides: Partial<CachedSourceOptions> = {}): SourceAdapter {
  return createCachedSource({
    live: provider.live,
    sourceId: 'acme-scim',
    store,
    feed: provider.feed,
    policy: { refreshMs: HOUR, maxStalenessMs: 2 * HOUR },
    clock: () => NOW,
    ...overrides,
  });
}

beforeEach(async () => {
  provider = new MemoryProvider(SOURCE);
  store = new MemoryBaselineStore();
  provider.upsert('ann', { display_name: 'Ann Ames', email: 'ann@example.com' });
  provider.upsert('bob', { display_name: 'Bob Brook', email: 'bob@example.com' });
  provider.upsert('cy', { display_name: 'Cy Ames' });
  provider.upsert('renee', { display_name: 'Renée Ames' });
  await fullSync(store, 'acme-scim', provider.feed, '2026-10-08T12:30:00Z');
});

describe('a cached source', () => {
  it('streams the baseline first, then the delta, and ends equal to a live read after adds, changes and deletes', async () => {
    provider.upsert('dee', { display_name: 'Dee Ames' });
    provider.upsert('ann', { display_name: 'Ann Other', email: 'ann@example.com' });
    provider.upsert('cy', { display_name: 'Cy Brook' }); // no longer matches "ames"
    provider.delete('renee');
    for (const query of [
      { operation: 'search_people', query: 'AMES' },
      { operation: 'list_people' },
    ] as const) {
      const cachedRead = await read(cached(), query);
      const liveRead = await read(provider.live, query);
      assert.deepEqual(cachedRead.result.records, liveRead.result.records, query.operation);
      assert.deepEqual(origins(cachedRead.events), ['cache_baseline', 'source_delta', 'complete']);
      assert.equal(cachedRead.result.metadata.retrieval_mode, 'cache_baseline_with_delta');
      assert.equal(cachedRead.result.metadata.source_delta_applied, true);
    }
  });

  it('matches baseline records with the kernel semantics (caseless, Unicode-normalised)', async () => {
    const { result } = await read(cached(), { operation: 'search_people', query: 'RENE\u0301E' });
    assert.deepEqual(
      result.records.map((r) => r.display_name),
      ['Renée Ames'],
    );
  });

  it('sends a small first baseline page, asked for while the sync state is read', async () => {
    // Prepare: a sync state that takes a while to read, and a log of what the store was asked when
    const asked: string[] = [];
    const readState = store.readState.bind(store);
    const readPages = store.readPages.bind(store);
    store.readState = async (sourceId) => {
      asked.push('state asked');
      await new Promise((resolve) => setTimeout(resolve, 20));
      asked.push('state read');
      return readState(sourceId);
    };
    store.readPages = (sourceId, pageSize, signal, firstPageSize) => {
      asked.push('pages asked');
      return readPages(sourceId, pageSize, signal, firstPageSize);
    };
    // Act
    const { events } = await read(cached({ pageSize: 2, firstPageSize: 1 }), { operation: 'list_people' });
    // Assess
    assert.deepEqual(asked.slice(0, 2).sort(), ['pages asked', 'state asked']);
    assert.equal(asked[2], 'state read');
    const baselinePages = events.filter((e) => e.type === 'page' && e.origin === 'cache_baseline');
    assert.deepEqual(
      baselinePages.map((e) => (e.type === 'page' ? e.records.length : 0)),
      [1, 2, 1],
    );
  });

  it('asks the provider for its changes while the rest of the baseline is still being read', async () => {
    // Prepare: a log of when each baseline page was read and when the delta was asked for
    const log: string[] = [];
    const readPages = store.readPages.bind(store);
    store.readPages = async function* (sourceId, pageSize, signal, firstPageSize) {
      for await (const page of readPages(sourceId, pageSize, signal, firstPageSize)) {
        log.push('baseline page');
        yield page;
      }
    };
    const feed = {
      ...provider.feed,
      changes: (...args: Parameters<typeof provider.feed.changes>) => {
        log.push('delta asked');
        return provider.feed.changes(...args);
      },
    };
    // Act
    await read(cached({ feed, pageSize: 1, firstPageSize: 1 }), { operation: 'list_people' });
    // Assess: four pages of one record; the delta was asked for after the first, not after the last
    assert.equal(log.filter((entry) => entry === 'baseline page').length, 4);
    assert.ok(log.indexOf('delta asked') < log.lastIndexOf('baseline page'), log.join(', '));
  });

  it('reads live when the baseline is older than max_staleness', async () => {
    const { events, result } = await read(cached({ clock: () => NOW + 2 * HOUR }), {
      operation: 'list_people',
    });
    assert.deepEqual(origins(events), ['live', 'complete']);
    assert.equal(result.metadata.retrieval_mode, 'live_provider');
    assert.equal(provider.liveReads, 1);
  });

  it('reads live when the source has no baseline yet', async () => {
    const { result } = await read(cached({ sourceId: 'never-synced' }), { operation: 'list_people' });
    assert.equal(result.metadata.retrieval_mode, 'live_provider');
    assert.equal(result.records.length, 4);
  });

  it('reads live, and says why, when the store cannot be read', async () => {
    store.failing = true;
    const seen: unknown[] = [];
    const { result } = await read(cached({ onStoreError: (e) => seen.push(e) }), {
      operation: 'list_people',
    });
    assert.equal(result.metadata.retrieval_mode, 'live_provider');
    assert.equal(result.metadata.completeness, 'complete');
    assert.equal(seen.length, 1);
  });

  it('answers from the baseline with the source error and partial completeness when the delta fails', async () => {
    provider.delete('bob');
    provider.deltaFailure = new SourceError('rate_limited');
    const { events, result } = await read(cached(), { operation: 'list_people' });
    assert.deepEqual(origins(events), ['cache_baseline', 'error']);
    assert.deepEqual(
      result.records.map((r) => r.display_name),
      ['Ann Ames', 'Bob Brook', 'Cy Ames', 'Renée Ames'],
    );
    assert.deepEqual(result.metadata.source_errors, [{ source: SOURCE, error: { code: 'rate_limited' } }]);
    assert.equal(result.metadata.completeness, 'partial');
    assert.equal(result.metadata.retrieval_mode, 'cache_baseline');
    assert.equal(result.metadata.cache_baseline_applied, true);
    assert.equal(result.metadata.source_delta_applied, false);
    assert.equal(result.metadata.provenance[0]?.observed_at, '2026-10-08T12:30:00+00:00');
    assert.equal(provider.liveReads, 0);
  });

  it('caps a search’s baseline at its limit and still applies the delta', async () => {
    provider.delete('ann');
    const { result } = await read(cached(), { operation: 'search_people', query: 'ames', limit: 2 });
    assert.deepEqual(
      result.records.map((r) => r.display_name),
      ['Cy Ames'],
    );
  });

  it('keeps the live adapter’s plain read unchanged', async () => {
    const pages = [];
    for await (const page of cached().read(
      { operation: 'list_people' },
      {
        signal: new AbortController().signal,
        deadline: Date.now() + 1000,
      },
    ))
      pages.push(page);
    assert.equal(pages.flat().length, 4);
    assert.equal(provider.liveReads, 1);
  });
});
