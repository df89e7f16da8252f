/**
 * The identity rules against their plain reference (support/reference-identity.ts): whatever the records, their
 * order, and however the engine pages and chunks them, each delivery page is the rules applied to its chunk and
 * the final result is the rules applied to everything delivered, byte for byte.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { federate, normalizeRecord, runFederation } from '../../../lambda/federation/index.js';
import type {
  FederatedRecord,
  FederationEvent,
  NormalizedRecord,
  RawRecord,
  SourceRef,
} from '../../../lambda/federation/index.js';
import { referenceFederate } from './support/reference-identity.js';
import { fixedClock, inMs, rawRecord, ref, scripted } from './support/scripted-source.js';

const sources: SourceRef[] = [ref('acme-hr', 'hr'), ref('acme-crm', 'crm'), ref('acme-dir', 'directory')];

// Few ids, emails and phones so that repeats of a key (with changed email/phone), joins inside a chunk and
// joins across chunks all happen often; day ties exercise the fixed tie-break between versions of one key.
const recordSpec = fc.record({
  source: fc.nat({ max: sources.length - 1 }),
  id: fc.integer({ min: 1, max: 15 }),
  email: fc.constantFrom(null, 'a@x.io', ' A@X.io', 'b@x.io', 'c@x.io', 'd@x.io'),
  phone: fc.constantFrom(null, '+1 555 000 1111', '+15550001111', '+442079460000', '123'),
  name: fc.constantFrom(null, 'Ana', 'bob', 'Bob', 'Zoë'),
  day: fc.integer({ min: 1, max: 3 }),
  title: fc.constantFrom('a', 'b'),
});
type Spec = typeof recordSpec extends fc.Arbitrary<infer T> ? T : never;

function raw(spec: Spec): RawRecord {
  return rawRecord(sources[spec.source]!, `e${spec.id}`, {
    email: spec.email,
    phone: spec.phone,
    display_name: spec.name,
    observed_at: `2026-10-0${spec.day}T12:00:00Z`,
    attributes: { title: spec.title },
  });
}

function normalized(item: Spec | RawRecord): NormalizedRecord {
  const r = 'external_id' in item ? item : raw(item);
  const record = normalizeRecord(r, { source_type: r.source_type, source_identity: r.source_identity });
  assert.ok(typeof record !== 'string');
  return record;
}

const bytes = (records: readonly FederatedRecord[]) => JSON.stringify(records);

/** Splits `items` into consecutive chunks of the given sizes (the rest forms a last chunk). */
function chunked<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= items.length) break;
    out.push(items.slice(at, at + size));
    at += size;
  }
  if (at < items.length) out.push(items.slice(at));
  return out;
}

/** Runs `list_people` over one scripted adapter per source, each yielding its records in provider pages. */
async function federateThroughEngine(providerPages: Map<SourceRef, RawRecord[][]>, pageSize: number) {
  const events: FederationEvent[] = [];
  const result = await runFederation({
    sources: [...providerPages].map(([source, pages]) => scripted(source, pages).adapter),
    query: { operation: 'list_people' },
    deadline: inMs(10_000),
    pageSize,
    clock: fixedClock,
    onEvent: (event) => void events.push(event),
  });
  return { events, records: result.records };
}

describe('the identity rules', () => {
  it('give the bytes of the plain reference for any records, in any order', () => {
    fc.assert(
      fc.property(fc.array(recordSpec, { maxLength: 40 }), fc.nat(), (specs, rotation) => {
        // Fresh records for each side: neither may depend on state the other cached.
        const expected = bytes(referenceFederate(specs.map(normalized)));
        assert.equal(bytes(federate(specs.map(normalized))), expected);
        const turned = specs.map((_, i) => specs[(i + rotation) % specs.length]!);
        assert.equal(bytes(federate([...turned].reverse().map(normalized))), expected);
      }),
      { numRuns: 300 },
    );
  });

  it('publish each delivery page as its chunk federated, and a final result of everything delivered, however the records are paged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordSpec, { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 5 }),
        async (specs, sizes, pageSize) => {
          const providerPages = new Map<SourceRef, RawRecord[][]>();
          for (const [i, source] of sources.entries())
            providerPages.set(source, chunked(specs.filter((s) => s.source === i).map(raw), sizes));
          const { events, records } = await federateThroughEngine(providerPages, pageSize);
          assert.equal(bytes(records), bytes(referenceFederate(specs.map(normalized))));
          for (const [source, pages] of providerPages) {
            // The engine cuts each provider page into delivery chunks of at most `pageSize`.
            const expected = pages
              .flatMap((page) => chunked(page, Array<number>(page.length).fill(pageSize)))
              .map((chunk) => bytes(referenceFederate(chunk.map(normalized))));
            const published = events
              .filter((e) => e.type === 'page' && e.source === source)
              .map((e) => (e.type === 'page' ? bytes(e.records) : ''));
            assert.deepEqual(published, expected);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('merge attributes by precedence without touching prototypes, keeping JSON key order', () => {
    const source = sources[0]!;
    const make = (id: string, day: number, attributes: string) =>
      normalized(
        rawRecord(source, id, {
          email: 'kim@x.io',
          observed_at: `2026-10-0${day}T12:00:00Z`,
          attributes: JSON.parse(attributes) as Record<string, unknown>,
        }),
      );
    // `__proto__` arrives as an own key (as JSON.parse makes it); `toString` is only inherited by `{}`.
    const [merged] = federate([
      make('k1', 1, '{"__proto__": "old", "toString": "old", "2": "old", "b": "old"}'),
      make('k2', 2, '{"b": "new", "10": "new", "__proto__": "new"}'),
    ]);
    assert.equal(Object.getPrototypeOf(merged?.attributes), Object.prototype);
    assert.equal(
      JSON.stringify(merged?.attributes),
      '{"2":"old","10":"new","b":"new","__proto__":"new","toString":"old"}',
    );
  });

  it('merge two records of one delivery page that share an email, even written differently', async () => {
    const [hr] = sources as [SourceRef];
    const page = [
      rawRecord(hr, 'k0', { email: 'Kim@Example.com' }),
      rawRecord(hr, 'k1', { email: 'kim@example.com ' }),
    ];
    const { events, records } = await federateThroughEngine(new Map([[hr, [page]]]), 100);
    const [first] = events;
    assert.equal(first?.type, 'page');
    assert.equal(first.type === 'page' ? first.records.length : 0, 1);
    assert.deepEqual(records[0]?.identity_match, { matched_on: ['email'], source_count: 2 });
  });

  it('leave records that only join records of other pages alone in their page, and merge them in the final result', async () => {
    const [hr, crm] = sources as [SourceRef, SourceRef];
    const { events, records } = await federateThroughEngine(
      new Map([
        [hr, [[rawRecord(hr, 'h1', { email: 'a@x.io' }), rawRecord(hr, 'h2', { email: 'b@x.io' })]]],
        [crm, [[rawRecord(crm, 'c1', { email: 'a@x.io' }), rawRecord(crm, 'c2', { email: 'c@x.io' })]]],
      ]),
      100,
    );
    for (const event of events) if (event.type === 'page') assert.equal(event.records.length, 2);
    const merged = records.filter((r) => r.identity_match !== null);
    assert.deepEqual(
      merged.map((r) => r.sources.map((s) => s.external_id)),
      [['c1', 'h1']],
    );
  });
});
