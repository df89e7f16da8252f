/**
 * The final merge's first-slot table: one slot per distinct key (and tag), found again for an equal key however
 * the hash is seeded, and a lookup that gives up (instead of probing on) once `maxProbes` cells are occupied.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { EMPTY, SlotTable } from '../../../lambda/federation/slot-table.js';

/** Claims each slot's key in order; returns, per slot, the first slot that held an equal key (or itself). */
function firstSlots(table: SlotTable, keys: string[], tags?: number[]): number[] {
  const of = tags === undefined ? { keys } : { keys, tags };
  return keys.map((key, slot) => {
    const cell = table.lookup(key, tags?.[slot] ?? 0, of);
    assert.ok(cell !== undefined);
    const first = table.slotAt(cell);
    if (first !== EMPTY) return first;
    table.put(cell, slot);
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

  it('holds many distinct keys without giving up', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `person.${i}@example.com`);
    assert.deepEqual(firstSlots(new SlotTable(keys.length), keys), reference(keys));
  });

  it('gives up once a lookup has passed maxProbes occupied cells', () => {
    const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
    const table = new SlotTable(keys.length, { maxProbes: 1, seed: 7 });
    let gaveUp = false;
    for (const [slot, key] of keys.entries()) {
      const cell = table.lookup(key, 0, { keys });
      if (cell === undefined) {
        gaveUp = true;
        break;
      }
      table.put(cell, slot);
    }
    // 8 keys in 16 cells with one probe each: with this seed, some key meets an occupied cell first.
    assert.equal(gaveUp, true);
  });
});
