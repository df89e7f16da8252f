/**
 * The per-chunk link check of the final merge's store: whether a key occurs twice among the records of one
 * delivery chunk (only then does its page need source-local federation). A small open-addressing table of chunk
 * positions keyed by the keys' precomputed hashes (key-hash.ts), reused from chunk to chunk: a generation stamp
 * per cell replaces clearing it, and nothing is allocated per record.
 */
import { mixHash } from './key-hash.js';

/**
 * Occupied cells a check may pass before it answers "maybe linked" (crafted collisions then cost a federation
 * of the chunk, never a quadratic scan).
 */
const MAX_PROBES = 32;

/** One key kind's positions within the chunk being checked. */
export class ChunkLinks {
  #positions = new Int32Array(0);
  #hashes = new Int32Array(0);
  #stamps = new Int32Array(0);
  #mask = 0;
  #stamp = 0;
  #keyOf: (position: number) => string | null = () => null;
  readonly #seed = (Math.random() * 0x100000000) | 0;

  /** Starts a chunk of `count` records whose key at a position is `keyOf(position)`. */
  start(count: number, keyOf: (position: number) => string | null): void {
    let size = 16;
    while (size < count * 2) size *= 2;
    if (size > this.#stamps.length) {
      this.#positions = new Int32Array(size);
      this.#hashes = new Int32Array(size);
      this.#stamps = new Int32Array(size);
      this.#stamp = 0;
    }
    this.#mask = size - 1;
    this.#keyOf = keyOf;
    // A stamp marks the cells of this chunk; every older stamp reads as empty (it wraps after 2^32 chunks).
    this.#stamp = (this.#stamp + 1) | 0;
    if (this.#stamp === 0) {
      this.#stamps.fill(0);
      this.#stamp = 1;
    }
  }

  /**
   * Whether the key at `position` (hash `hash`) occurred at an earlier position of the chunk; otherwise it is
   * remembered. `true` also when the check gives up (a possible false alarm, never a missed link).
   */
  meets(hash: number, position: number): boolean {
    const stamps = this.#stamps;
    const mask = this.#mask;
    let cell = mixHash(hash, this.#seed) & mask;
    for (let probes = 0; probes < MAX_PROBES; probes++) {
      if (stamps[cell] !== this.#stamp) {
        stamps[cell] = this.#stamp;
        this.#positions[cell] = position;
        this.#hashes[cell] = hash;
        return false;
      }
      if (this.#hashes[cell] === hash && this.#keyOf(this.#positions[cell]!) === this.#keyOf(position))
        return true;
      cell = (cell + 1) & mask;
    }
    return true;
  }
}
