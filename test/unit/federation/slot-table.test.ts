/**
 * The final merge's first-slot table: one slot per distinct key (and tag), found again for an equal key however
 * the hash is seeded, and a lookup that gives up (instead of probing on) once `maxProbes` cells are occupied.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { keyHash } from '../../../lambda/federation/key-hash.js';
import { EMPTY, SlotTable } from '../../../lambda/federation/slot-table.js';

/**
 * Claims each slot's key in order; returns, per slot, the first slot that held an equal key (or itself).
 * `hashOf` gives a key's hash (a constant one makes every key collide: only the confirmation tells them apart).
 */
function firstSlots(
  table: SlotTable,
  keys: string[],
  tags?: number[],
  hashOf: (key: string, tag: number) => number = (key, tag) => keyHash(key) ^ Math.imul(tag, 0x9e3779b1),
): number[] {
  return keys.map((key, slot) => {
    const tag = tags?.[slot] ?? 0;
    const hash = hashOf(key, tag);
    const cell = table.lookup(hash, (other) => keys[other] === key && (tags?.[other] ?? 0) === tag);
    assert.ok(cell !== undefined);
    const first = table.slotAt(cell);
    if (first !== EMPTY) return first;
    table.put(cell, slot, hash);
    return slot;
  });
}

/** The same answer from a Map keyed by tag and key. */
function reference(keys: string[], tags?: number[]): number[] {
  const first = new Map<string, number>();
  return keys.map((key, slot) => {
    const k = `${tags?.[slot] ?? 0}\u0000${key}`;
    const seen = first.get(k);
    if (seen !== undefined) return seen;
    first.set(k, slot);
    return slot;
  });
}

describe('SlotTable', () => {
  it('finds the first slot of every key, as a Map would, whatever the seed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a@x.io', 'b@x.io', '+15550001111', 'Zoë', '', 'a@x.io ', 'ł'), {
          maxLength: 60,
        }),
        fc.integer({ min: 0, max: 0xffffffff }),
        (keys, seed) => {
          assert.deepEqual(firstSlots(new SlotTable(keys.length, { seed }), keys), reference(keys));
        },
      ),
    );
  });

  it('keeps keys apart when their tags differ (the same external id under two sources)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('e1', 'e2', 'e3'), fc.integer({ min: 0, max: 2 })), {
          maxLength: 40,
        }),
        (pairs) => {
          const keys = pairs.map(([key]) => key);
          const tags = pairs.map(([, tag]) => tag);
          assert.deepEqual(firstSlots(new SlotTable(keys.length), keys, tags), reference(keys, tags));
        },
      ),
    );
  });

  it('tells keys with equal hashes apart by confirming the key itself', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 30 }), (keys) => {
        const table = new SlotTable(keys.length);
        assert.deepEqual(
          firstSlots(table, keys, undefined, () => 42),
          reference(keys),
        );
      }),
    );
  });

  it('holds many distinct keys without giving up', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `person.${i}@example.com`);
    assert.deepEqual(firstSlots(new SlotTable(keys.length), keys), reference(keys));
  });

  it('gives up once a lookup has passed maxProbes occupied cells', () => {
    // Keys crafted to collide: every one has the same hash, so each new key probes past all earlier ones.
    const keys = ['k0', 'k1', 'k2', 'k3'];
    const table = new SlotTable(keys.length, { maxProbes: 3 });
    const lookup = (key: string) => table.lookup(7, (other) => keys[other] === key);
    for (const [slot, key] of keys.slice(0, 3).entries()) {
      const cell = lookup(key);
      assert.ok(cell !== undefined && table.slotAt(cell) === EMPTY);
      table.put(cell, slot, 7);
    }
    assert.equal(lookup('k3'), undefined);
    // A stored key is still found within the limit.
    const cell = lookup('k2');
    assert.ok(cell !== undefined);
    assert.equal(table.slotAt(cell), 2);
  });
});
