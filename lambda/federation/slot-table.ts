/**
 * A first-slot index for the final merge: records are numbered 0..n−1 (slots) and their keys live in the
 * caller's per-slot arrays; for each distinct key the table holds one slot. It is an open-addressing hash table
 * (linear probing, load factor ≤ ½) of slot numbers in a single Int32Array sized once.
 *
 * Why not a Map: at 10^5 string keys a Map lookup costs mostly cache misses (bucket, entry and key objects are
 * spread over the heap, and the table is rebuilt several times as it grows); a probe here reads one 4-byte cell
 * and reads a stored key only to confirm a match. The hash is seeded per table and a lookup gives up after
 * {@link MAX_PROBES} occupied cells, so keys crafted to collide cannot make the merge quadratic: the caller then
 * computes the result with the Map-based rules instead.
 */

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

/** The per-slot keys a table indexes; with `tags`, two slots hold the same key only if their tags are equal too. */
export interface SlotKeys {
  readonly keys: readonly (string | null)[];
  readonly tags?: readonly number[];
}

/** Seeded FNV-1a over UTF-16 units, then the murmur3 finaliser so that the low bits (the cell index) mix well. */
function hashOf(text: string, tag: number, seed: number): number {
  let h = (seed ^ Math.imul(tag, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One slot per distinct key, for at most `capacity` keys. */
export class SlotTable {
  readonly #cells: Int32Array;
  readonly #mask: number;
  readonly #seed: number;
  readonly #maxProbes: number;

  constructor(capacity: number, options: SlotTableOptions = {}) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.#cells = new Int32Array(size).fill(EMPTY);
    this.#mask = size - 1;
    this.#seed = options.seed ?? (Math.random() * 0x100000000) >>> 0;
    this.#maxProbes = options.maxProbes ?? MAX_PROBES;
  }

  /**
   * The cell that holds the slot whose key is `key` (and whose tag is `tag`), or the empty cell where that key
   * belongs; `undefined` after `maxProbes` occupied cells.
   */
  lookup(key: string, tag: number, of: SlotKeys): number | undefined {
    const cells = this.#cells;
    const { keys, tags } = of;
    let cell = hashOf(key, tag, this.#seed) & this.#mask;
    for (let probes = 0; probes < this.#maxProbes; probes++) {
      const slot = cells[cell]!;
      if (slot === EMPTY || (keys[slot] === key && (tags === undefined || tags[slot] === tag))) return cell;
      cell = (cell + 1) & this.#mask;
    }
    return undefined;
  }

  /** The slot in `cell`, or {@link EMPTY}. */
  slotAt(cell: number): number {
    return this.#cells[cell]!;
  }

  /** Puts `slot` in `cell` (a cell `lookup` returned for that slot's key). */
  put(cell: number, slot: number): void {
    this.#cells[cell] = slot;
  }
}
