/**
 * Layered reads (a cached source): baseline pages first, then the delta, whose retractions leave the final
 * result; metadata says truthfully which layers answered (docs/bos.md "Reading a cached source").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { runFederation, SourceError } from '../../../lambda/federation/index.js';
import type {
  FederationEvent,
  LayeredPage,
  SourceAdapter,
  SourceQuery,
  SourceRef,
} from '../../../lambda/federation/index.js';
import { fixedClock, inMs, rawRecord, ref, scripted } from './support/scripted-source.js';

const list: SourceQuery = { operation: 'list_people' };
const BASELINE_AT = '2026-10-08T11:00:00Z';

/** A layered adapter yielding `steps`, then ending, throwing or hanging until aborted. */
function layered(
  source: SourceRef,
  steps: LayeredPage[],
  then: 'end' | 'hang' | { throw: unknown } = 'end',
): SourceAdapter {
  return {
    source,
    read() {
      throw new Error('a layered source is read through readLayers');
    },
    async *readLayers(_query, { signal }) {
      for (const step of steps) yield step;
      if (then === 'hang')
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      if (typeof then === 'object') throw then.throw;
    },
  };
}

async function run(sources: SourceAdapter[], query: SourceQuery = list, deadlineMs = 2000) {
  const events: FederationEvent[] = [];
  const result = await runFederation({
    sources,
    query,
    deadline: inMs(deadlineMs),
    clock: fixedClock,
    onEvent: (e) => void events.push(e),
  });
  return { events, result };
}

const a = ref('a');
const ann = rawRecord(a, 'ann', { display_name: 'Ann', email: 'ann@example.com' });
const bob = rawRecord(a, 'bob', { display_name: 'Bob' });
const baseline = (...records: ReturnType<typeof rawRecord>[]): LayeredPage => ({
  layer: 'baseline',
  as_of: BASELINE_AT,
  records,
});

describe('runFederation with a layered source', () => {
  it('publishes baseline pages, then delta pages, each marked with its origin', async () => {
    const carl = rawRecord(a, 'carl', { display_name: 'Carl' });
    const { events } = await run([
      layered(a, [baseline(ann, bob), { layer: 'delta', retracted: [], records: [carl] }]),
    ]);
    assert.deepEqual(
      events.map((e) => (e.type === 'page' ? `page ${e.pageIndex} ${e.origin ?? 'live'}` : e.type)),
      ['page 1 cache_baseline', 'page 2 source_delta', 'complete'],
    );
  });

  it('drops from the final result a baseline record the delta deleted, and keeps only the changed version of one it changed', async () => {
    const annRenamed = rawRecord(a, 'ann', {
      display_name: 'Ann Other',
      email: null,
      observed_at: '2026-10-08T11:30:00Z',
    });
    const { result } = await run([
      layered(a, [baseline(ann, bob), { layer: 'delta', retracted: ['ann', 'bob'], records: [annRenamed] }]),
    ]);
    assert.deepEqual(
      result.records.map((r) => [r.display_name, r.email]),
      [['Ann Other', null]],
    );
    assert.deepEqual(
      {
        mode: result.metadata.retrieval_mode,
        baseline: result.metadata.cache_baseline_applied,
        delta: result.metadata.source_delta_applied,
        completeness: result.metadata.completeness,
        observed: result.metadata.provenance.map((p) => p.observed_at),
      },
      {
        mode: 'cache_baseline_with_delta',
        baseline: true,
        delta: true,
        completeness: 'complete',
        observed: ['2026-10-08T12:00:00+00:00'],
      },
    );
  });

  it('answers with the baseline, the source error and partial completeness when the delta fails', async () => {
    const { events, result } = await run([
      layered(a, [baseline(ann, bob)], { throw: new SourceError('rate_limited') }),
    ]);
    assert.deepEqual(
      result.records.map((r) => r.display_name),
      ['Ann', 'Bob'],
    );
    assert.deepEqual(result.metadata.source_errors, [{ source: a, error: { code: 'rate_limited' } }]);
    assert.equal(result.metadata.completeness, 'partial');
    assert.equal(result.metadata.retrieval_mode, 'cache_baseline');
    assert.equal(result.metadata.cache_baseline_applied, true);
    assert.equal(result.metadata.source_delta_applied, false);
    // The source is only as current as its baseline.
    assert.deepEqual(result.metadata.provenance, [{ ...a, observed_at: '2026-10-08T11:00:00+00:00' }]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['page', 'error'],
    );
  });

  it('keeps the baseline and ends the source with source_timeout when the deadline comes before the delta', async () => {
    const { result } = await run([layered(a, [baseline(ann)], 'hang')], list, 100);
    assert.deepEqual(
      result.records.map((r) => r.display_name),
      ['Ann'],
    );
    assert.deepEqual(result.metadata.source_errors, [{ source: a, error: { code: 'source_timeout' } }]);
    assert.equal(result.metadata.retrieval_mode, 'cache_baseline');
  });

  it('reports a live read as live_provider when a cached source had no usable baseline', async () => {
    const { events, result } = await run([layered(a, [{ layer: 'live', records: [ann] }])]);
    assert.equal(result.metadata.retrieval_mode, 'live_provider');
    assert.equal(result.metadata.cache_baseline_applied, false);
    assert.equal(result.metadata.source_delta_applied, false);
    assert.equal(events[0]?.type === 'page' ? events[0].origin : 'none', undefined);
  });

  it('says cache_baseline when any cached source lacks its delta, beside a live source and a current cached one', async () => {
    const b = ref('b');
    const c = ref('c');
    const { adapter: live } = scripted(c, [[rawRecord(c, 'x')]]);
    const { result } = await run([
      layered(a, [baseline(ann), { layer: 'delta', retracted: [], records: [] }]),
      layered(b, [baseline(rawRecord(b, 'y'))], { throw: new SourceError('source_unavailable') }),
      live,
    ]);
    assert.equal(result.metadata.retrieval_mode, 'cache_baseline');
    assert.equal(result.metadata.cache_baseline_applied, true);
    assert.equal(result.metadata.source_delta_applied, true);
    assert.deepEqual(
      result.metadata.provenance.map((p) => `${p.source_identity} ${p.observed_at}`),
      ['a 2026-10-08T12:00:00+00:00', 'b 2026-10-08T11:00:00+00:00', 'c 2026-10-08T12:00:00+00:00'],
    );
  });

  it('retracts only the layered source’s own records, never another source’s record with the same id', async () => {
    const b = ref('b');
    const { adapter: other } = scripted(b, [[rawRecord(b, 'ann', { display_name: 'Ann at b' })]]);
    const { result } = await run([
      layered(a, [baseline(ann), { layer: 'delta', retracted: ['ann'], records: [] }]),
      other,
    ]);
    assert.deepEqual(
      result.records.map((r) => r.display_name),
      ['Ann at b'],
    );
  });

  it('still applies the delta after the baseline filled a search limit, and caps the source at the limit', async () => {
    const carl = rawRecord(a, 'carl', { display_name: 'Carl' });
    const dora = rawRecord(a, 'dora', { display_name: 'Dora' });
    const { result } = await run(
      [layered(a, [baseline(ann, bob), { layer: 'delta', retracted: ['bob'], records: [carl, dora] }])],
      { operation: 'search_people', query: '', limit: 2 },
    );
    assert.deepEqual(
      result.records.map((r) => r.display_name),
      ['Ann', 'Carl'],
    );
  });
});
