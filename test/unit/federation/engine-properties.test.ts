/**
 * Property tests (fast-check) of the engine's invariants over generated sources, pages and interleavings:
 * arrival order never changes the final bytes; every delivered provenance entry is in the final result exactly
 * once; page indexes run 1..k without gaps; one terminal per source; pages ≤ pageSize; reads ≤ the limit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { runFederation, SourceError } from '../../../lambda/federation/index.js';
import type {
  FederationEvent,
  RawRecord,
  SourceAdapter,
  SourceRef,
} from '../../../lambda/federation/index.js';
import { fixedClock, inMs, rawRecord } from './support/scripted-source.js';

interface RecordSpec {
  id: number;
  email: string | null;
  phone: string | null;
  name: string | null;
  day: number;
}
interface SourceSpec {
  type: string;
  pages: RecordSpec[][];
  end: 'complete' | 'error' | 'throw' | 'mismatch';
}

const recordSpec = fc.record({
  id: fc.integer({ min: 1, max: 12 }),
  email: fc.constantFrom(null, 'a@x.io', ' A@X.io', 'b@x.io', 'c@x.io'),
  phone: fc.constantFrom(null, '+1 555 000 1111', '+15550001111', '+44 20 7946 0000', '123'),
  name: fc.constantFrom(null, 'Ana', 'bob', 'Bob', 'Cy'),
  day: fc.integer({ min: 1, max: 3 }),
});
const sourceSpec = fc.record({
  type: fc.constantFrom('hr', 'crm'),
  pages: fc.array(fc.array(recordSpec, { maxLength: 9 }), { maxLength: 4 }),
  end: fc.constantFrom('complete', 'complete', 'error', 'throw', 'mismatch'),
});
const scenario = fc.record({
  sources: fc.array(sourceSpec, { minLength: 1, maxLength: 5 }),
  pageSize: fc.integer({ min: 1, max: 6 }),
  maxConcurrentSources: fc.integer({ min: 1, max: 4 }),
  scheduleA: fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 40 }),
  scheduleB: fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 40 }),
});

const toRaw = (source: SourceRef, r: RecordSpec): RawRecord =>
  rawRecord(source, `e${r.id}`, {
    email: r.email,
    phone: r.phone,
    display_name: r.name,
    observed_at: `2026-10-0${r.day}T12:00:00Z`,
    attributes: { day: r.day },
  });

/** Builds adapters that interleave by yielding a scheduled number of microtasks before each page. */
function build(specs: SourceSpec[], schedule: number[], inFlight: { now: number; max: number }) {
  let tick = 0;
  const pause = async () => {
    const n = schedule[tick++ % schedule.length] ?? 0;
    for (let i = 0; i < n; i++) await Promise.resolve();
  };
  return specs.map((spec, i): SourceAdapter => {
    const source = { source_type: spec.type, source_identity: `s${i}` };
    return {
      source,
      async *read() {
        inFlight.now++;
        inFlight.max = Math.max(inFlight.max, inFlight.now);
        try {
          for (const page of spec.pages) {
            await pause();
            yield page.map((r) => toRaw(source, r));
          }
          await pause();
          if (spec.end === 'error') throw new SourceError('rate_limited');
          if (spec.end === 'throw') throw new Error('secret=abc');
          if (spec.end === 'mismatch')
            yield [
              toRaw(
                { ...source, source_identity: 'other' },
                { id: 1, email: null, phone: null, name: null, day: 1 },
              ),
            ];
        } finally {
          inFlight.now--;
        }
      },
    };
  });
}

async function runScenario(
  specs: SourceSpec[],
  schedule: number[],
  pageSize: number,
  maxConcurrentSources: number,
  reverse: boolean,
) {
  const inFlight = { now: 0, max: 0 };
  let adapters = build(specs, schedule, inFlight);
  if (reverse) adapters = adapters.reverse();
  const events: FederationEvent[] = [];
  const result = await runFederation({
    sources: adapters,
    query: { operation: 'list_people' },
    deadline: inMs(10_000),
    pageSize,
    maxConcurrentSources,
    clock: fixedClock,
    onEvent: (e) => void events.push(e),
  });
  return { events, result, maxInFlight: inFlight.max };
}

const keyOf = (e: { source_type: string; source_identity: string; external_id: string }) =>
  `${e.source_type}/${e.source_identity}/${e.external_id}`;

describe('runFederation properties', () => {
  it('gives a byte-identical final result for any arrival order and source order of the same pages', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const a = await runScenario(s.sources, s.scheduleA, s.pageSize, s.maxConcurrentSources, false);
        const b = await runScenario(s.sources, s.scheduleB, s.pageSize, s.maxConcurrentSources, true);
        assert.equal(JSON.stringify(b.result), JSON.stringify(a.result));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps every delivered provenance entry exactly once and nothing undelivered', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { events, result } = await runScenario(
          s.sources,
          s.scheduleA,
          s.pageSize,
          s.maxConcurrentSources,
          false,
        );
        const delivered = new Set<string>();
        for (const e of events)
          if (e.type === 'page')
            for (const r of e.records) for (const p of r.sources) delivered.add(keyOf(p));
        const final = result.records.flatMap((r) => r.sources.map(keyOf));
        assert.equal(new Set(final).size, final.length, 'no provenance entry appears twice');
        assert.deepEqual([...final].sort(), [...delivered].sort());
        assert.equal(result.metadata.result_count, result.records.length);
        const refs = result.records.map((r) => r.record_ref);
        assert.equal(new Set(refs).size, refs.length, 'record_refs are unique');
      }),
      { numRuns: 100 },
    );
  });

  it('numbers pages 1..k per source, ends each source once after its pages, and bounds pages and reads', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { events, result, maxInFlight } = await runScenario(
          s.sources,
          s.scheduleA,
          s.pageSize,
          s.maxConcurrentSources,
          false,
        );
        assert.ok(maxInFlight <= s.maxConcurrentSources, `${maxInFlight} reads in flight`);
        const failed = new Set<string>();
        s.sources.forEach((spec, i) => {
          const mine = events.filter((e) => e.source.source_identity === `s${i}`);
          const pages = mine.filter((e) => e.type === 'page');
          const terminals = mine.filter((e) => e.type !== 'page');
          assert.equal(terminals.length, 1, 'exactly one terminal');
          assert.equal(mine.at(-1), terminals[0], 'the terminal follows every page');
          assert.deepEqual(
            pages.map((p) => p.pageIndex),
            pages.map((_, k) => k + 1),
          );
          assert.equal(terminals[0]?.pageIndex, pages.length);
          for (const p of pages)
            assert.ok(p.type === 'page' && p.records.length <= s.pageSize && p.records.length > 0);
          const expected = {
            complete: undefined,
            error: 'rate_limited',
            throw: 'source_unavailable',
            mismatch: 'source_identity_mismatch',
          }[spec.end];
          assert.equal(terminals[0]?.type === 'error' ? terminals[0].code : undefined, expected);
          if (expected !== undefined) failed.add(`s${i}`);
        });
        assert.equal(result.metadata.completeness, failed.size > 0 ? 'partial' : 'complete');
        assert.deepEqual(
          result.metadata.source_errors.map((e) => e.source.source_identity).sort(),
          [...failed].sort(),
        );
      }),
      { numRuns: 100 },
    );
  });
});
