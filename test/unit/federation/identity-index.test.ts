/**
 * The incremental identity index against the reference batch rules: whatever the records and however they are
 * chunked, the index's final result is byte-identical to `federate(every record)`, and a chunk it reports as
 * unlinked publishes exactly what `federate(chunk)` would.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { federate, normalizeRecord, ValidatedPage } from '../../../lambda/federation/index.js';
import type { NormalizedRecord, RawRecord, SourceRef } from '../../../lambda/federation/index.js';
import { IdentityIndex } from '../../../lambda/federation/identity-index.js';
import { sortResult } from '../../../lambda/federation/result-order.js';
import { rawRecord, ref } from './support/scripted-source.js';

const sources: SourceRef[] = [ref('acme-hr', 'hr'), ref('acme-crm', 'crm'), ref('acme-dir', 'directory')];

// Few ids, emails and phones so that repeats of a key (with changed email/phone), joins inside a chunk and
// joins across chunks all happen often; day ties exercise the canonical tie-break of repeats.
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

function normalized(spec: Spec): NormalizedRecord {
  const record = normalizeRecord(raw(spec), sources[spec.source]!);
  assert.ok(typeof record !== 'string');
  return record;
}

/** The records as one validated provider page (records of several sources: the index must not mind). */
function validated(specs: readonly Spec[]): ValidatedPage {
  const page = new ValidatedPage();
  for (const spec of specs) assert.equal(page.add(raw(spec), sources[spec.source]!), undefined);
  return page;
}

/** A page of already validated records. */
function pageOf(records: readonly NormalizedRecord[]): ValidatedPage {
  const page = new ValidatedPage();
  for (const { record } of records) {
    const entry = record.sources[0]!;
    assert.equal(page.add({ ...record, ...entry }, entry), undefined);
  }
  return page;
}

/** Splits `items` into consecutive chunks of the given sizes (the rest forms a last chunk). */
function chunked<T>(items: T[], sizes: number[]): T[][] {
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

describe('IdentityIndex', () => {
  it('gives the same final bytes as federating every delivered record at once, however they are chunked', () => {
    fc.assert(
      fc.property(
        fc.array(recordSpec, { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 5 }),
        (specs, sizes, chunkSize) => {
          // Fresh records for each side: the index must not depend on state cached by the reference run.
          const reference = federate(specs.map(normalized));
          const index = new IdentityIndex();
          // Provider pages of the given sizes, each delivered in chunks of `chunkSize`, as the engine does.
          for (const providerPage of chunked(specs, sizes)) {
            const page = validated(providerPage);
            for (let start = 0; start < page.length; start += chunkSize) {
              const end = Math.min(start + chunkSize, page.length);
              const linked = index.addChunk(page, start, end);
              if (!linked)
                assert.equal(
                  JSON.stringify(sortResult(page.records.slice(start, end))),
                  JSON.stringify(federate(providerPage.slice(start, end).map(normalized))),
                );
            }
          }
          assert.equal(JSON.stringify(index.result()), JSON.stringify(reference));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same final bytes when its key tables give up and the Map-based rules take over', () => {
    fc.assert(
      fc.property(
        fc.array(recordSpec, { minLength: 2, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 10 }),
        (specs, sizes) => {
          const reference = federate(specs.map(normalized));
          // One probe per lookup: any two keys in one cell make the table give up.
          const index = new IdentityIndex({ maxProbes: 1, seed: 1 });
          for (const chunk of chunked(specs, sizes)) index.addChunk(validated(chunk));
          assert.equal(JSON.stringify(index.result()), JSON.stringify(reference));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('merges attributes by precedence without touching prototypes, keeping JSON key order', () => {
    const source = sources[0]!;
    const make = (id: string, day: number, attributes: Record<string, unknown>) => {
      const r = normalizeRecord(
        rawRecord(source, id, {
          email: 'kim@x.io',
          observed_at: `2026-10-0${day}T12:00:00Z`,
          attributes: JSON.parse(JSON.stringify(attributes)) as Record<string, unknown>,
        }),
        source,
      );
      assert.ok(typeof r !== 'string');
      return r;
    };
    // `__proto__` arrives as an own key (as JSON.parse makes it); `toString` is only inherited by `{}`.
    const older = JSON.parse('{"__proto__": "old", "toString": "old", "2": "old", "b": "old"}') as Record<
      string,
      unknown
    >;
    const newer = JSON.parse('{"b": "new", "10": "new", "__proto__": "new"}') as Record<string, unknown>;
    const index = new IdentityIndex();
    index.addChunk(pageOf([make('k1', 1, older), make('k2', 2, newer)]));
    const [merged] = index.result();
    assert.equal(Object.getPrototypeOf(merged?.attributes), Object.prototype);
    assert.equal(
      JSON.stringify(merged?.attributes),
      '{"2":"old","10":"new","b":"new","__proto__":"new","toString":"old"}',
    );
  });

  it('reports a chunk as linked when two of its records share an email, even written differently', () => {
    const index = new IdentityIndex();
    const source = sources[0]!;
    const chunk = ['Kim@Example.com', 'kim@example.com '].map((email, i) => {
      const r = normalizeRecord(rawRecord(source, `k${i}`, { email }), source);
      assert.ok(typeof r !== 'string');
      return r;
    });
    assert.equal(index.addChunk(pageOf(chunk)), true);
    assert.equal(index.result().length, 1);
  });

  it('reports a chunk as unlinked when its records only join records of earlier chunks', () => {
    const index = new IdentityIndex();
    const [hr, crm] = sources as [SourceRef, SourceRef];
    const make = (source: SourceRef, id: string, email: string) => {
      const r = normalizeRecord(rawRecord(source, id, { email }), source);
      assert.ok(typeof r !== 'string');
      return r;
    };
    assert.equal(index.addChunk(pageOf([make(hr, 'h1', 'a@x.io'), make(hr, 'h2', 'b@x.io')])), false);
    assert.equal(index.addChunk(pageOf([make(crm, 'c1', 'a@x.io'), make(crm, 'c2', 'c@x.io')])), false);
    const merged = index.result().filter((r) => r.identity_match !== null);
    assert.deepEqual(
      merged.map((r) => r.sources.map((s) => s.external_id)),
      [['c1', 'h1']],
    );
  });
});
