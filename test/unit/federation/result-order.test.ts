/**
 * The result order (DESIGN §4): lower-cased display_name, records without one last, then record_ref, checked
 * against the order written plainly here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { RECORD_REF_PREFIX } from '../../../lambda/federation/index.js';
import type { FederatedRecord } from '../../../lambda/federation/index.js';
import { sortResult } from '../../../lambda/federation/result-order.js';

const record = (display_name: string | null, record_ref: string): FederatedRecord => ({
  record_ref,
  display_name,
  email: null,
  phone: null,
  lifecycle: null,
  sources: [],
  identity_match: null,
  attributes: {},
});

/** The order written plainly. */
function reference(records: readonly FederatedRecord[]): FederatedRecord[] {
  const name = (r: FederatedRecord) => r.display_name?.toLowerCase() ?? null;
  return [...records].sort((a, b) => {
    const x = name(a);
    const y = name(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return x < y ? -1 : 1;
    }
    return a.record_ref < b.record_ref ? -1 : a.record_ref > b.record_ref ? 1 : 0;
  });
}

const refs = (pool: string) =>
  fc.array(fc.constantFrom(...pool.split('')), { maxLength: 6 }).map((c) => c.join(''));
// Few names, differing in case and beyond Latin-1; refs sharing long prefixes, of unequal lengths.
const names = fc.constantFrom(null, 'Ana', 'ana', 'ANA', 'Bob', 'Zoë', 'Łukasz', 'łukasz', '', 'a\u0000');
const prefixed = refs('AAB_-z09').map((d) => `${RECORD_REF_PREFIX}AA${d}`);
const anyRef = fc.oneof(prefixed, fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 }));

describe('sortResult', () => {
  it('orders by lower-cased name, nameless last, then ref', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(names, prefixed), { maxLength: 60 }), (pairs) => {
        // Distinct refs: equal (name, ref) pairs would leave their order to the input.
        const unique = [...new Map(pairs.map(([n, r]) => [r, n])).entries()].map(([r, n]) => record(n, r));
        assert.equal(JSON.stringify(sortResult(unique)), JSON.stringify(reference(unique)));
      }),
      { numRuns: 500 },
    );
  });

  it('orders refs without the shared prefix or outside ASCII by their UTF-16 units', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(names, anyRef), { maxLength: 40 }), (pairs) => {
        const unique = [...new Map(pairs.map(([n, r]) => [r, n])).entries()].map(([r, n]) => record(n, r));
        assert.equal(JSON.stringify(sortResult(unique)), JSON.stringify(reference(unique)));
      }),
      { numRuns: 500 },
    );
  });

  it('sorts a large result whose refs share their first characters by the whole refs', () => {
    // 3,000 records, one name written two ways, refs alike in their first five digest characters.
    const records = Array.from({ length: 3000 }, (_, i) =>
      record(i % 2 === 0 ? 'Kim' : 'kim', `${RECORD_REF_PREFIX}AAAAA${(i * 7919) % 3001}`),
    );
    assert.deepEqual(sortResult(records), reference(records));
  });
});
