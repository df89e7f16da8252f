/**
 * A first-slot index for the final merge: records are numbered 0..n−1 (slots) and their keys live in the
 * caller's per-slot storage; for each distinct key the table holds one slot. It is an open-addressing hash table
 * (linear probing, load factor ≤ ½) of (slot, key hash) pairs in a single Int32Array sized once, so a probe
 * rejects a different key by its hash without reading the key itself; the caller confirms a full hash match.
 *
 * Why not a Map: at 10^5 string keys a Map lookup costs mostly cache misses (bucket, entry and key objects are
 * spread over the heap, and the table is rebuilt several times as it grows). The cell index mixes the key's hash
 * (key-hash.ts, seeded per process) with a seed per table, and a lookup gives up after {@link MAX_PROBES}
 * occupied cells, so keys crafted to collide cannot make the merge quadratic: the caller then computes the result
 * with the Map-based rules instead.
 */
import { mixHash } from './key-hash.js';

const randomSeed = () => (Math.random() * 0x100000000) | 0;

/** A cell with no slot. */
export const EMPTY = -1;

/** Occupied cells a lookup may pass before it gives up (expected: 1–2; a long run means crafted keys). */
export const MAX_PROBES = 256;

/** Options of {@link SlotTable}; tests set them to reach the give-up path deterministically. */
export interface SlotTableOptions {
  /** @default a random 32-bit value per table */
  readonly seed?: number;
  /** @default MAX_PROBES */
  readonly maxProbes?: number;
}

/** One slot per distinct key, for at most `capacity` keys. */
export class SlotTable {
  /** Cell `c` is `cells[2c]` (its slot, or EMPTY) and `cells[2c + 1]` (that slot's key hash). */
  readonly #cells: Int32Array;
  readonly #mask: number;
  #seed: number;
  readonly #maxProbes: number;

  constructor(capacity: number, options: SlotTableOptions = {}) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.#cells = new Int32Array(size * 2).fill(EMPTY);
    this.#mask = size - 1;
    this.#seed = options.seed ?? randomSeed();
    this.#maxProbes = options.maxProbes ?? MAX_PROBES;
  }

  /**
   * Empties the table for another index of as many keys, under a new seed unless one was given. One table
   * serves the merge's three indexes: refilling memory already in use costs far less than faulting in a fresh
   * allocation of the same size.
   */
  clear(options: SlotTableOptions = {}): void {
    this.#cells.fill(EMPTY);
    this.#seed = options.seed ?? randomSeed();
  }

  /**
   * The cell holding a slot whose key equals the one looked up (its hash is `hash`; `same(slot)` confirms the
   * key of a slot with that very hash), or the empty cell where that key belongs; `undefined` after `maxProbes`
   * occupied cells.
   */
  lookup(hash: number, same: (slot: number) => boolean): number | undefined {
    const cells = this.#cells;
    const mask = this.#mask;
    let cell = mixHash(hash, this.#seed) & mask;
    for (let probes = 0; probes < this.#maxProbes; probes++) {
      const slot = cells[2 * cell]!;
      if (slot === EMPTY || (cells[2 * cell + 1] === hash && same(slot))) return cell;
      cell = (cell + 1) & mask;
    }
    return undefined;
  }

  /** The slot in `cell`, or {@link EMPTY}. */
  slotAt(cell: number): number {
    return this.#cells[2 * cell]!;
  }

  /** Puts `slot`, whose key hash is `hash`, in `cell` (a cell `lookup` returned for that key). */
  put(cell: number, slot: number, hash: number): void {
    this.#cells[2 * cell] = slot;
    this.#cells[2 * cell + 1] = hash;
  }
}
