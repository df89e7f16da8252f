/**
 * Hashes of identity keys (external id, normalised email, normalised phone), computed once per record at
 * validation, while the key's characters are at hand. The final merge's tables and the per-chunk link check
 * then work on these numbers and read a key string only to confirm a full hash match: at 10^5 records every
 * string read at the end is a likely cache miss, and hashing one again re-reads all of it.
 *
 * Crafted keys: the hash is seeded with a random value per process, so colliding keys cannot be computed
 * offline, and every table that uses it also mixes in its own seed and gives up after a bounded number of
 * probes (see slot-table.ts), so even keys that do collide cost at most a fallback to Map-based rules.
 */
import { getRandomValues } from 'node:crypto';

/** This process's hash seed (random, so key collisions cannot be precomputed). */
const PROCESS_SEED = getRandomValues(new Uint32Array(1))[0]!;

/**
 * Seeded FNV-1a over the UTF-16 units of `text`, as an int32 (an int32 stays a small integer in V8, where a
 * uint32 above 2^31 would be a heap number).
 */
export function keyHash(text: string): number {
  let h = PROCESS_SEED | 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * The murmur3 finaliser over `hash ^ seed`: spreads a key hash over the low bits a table indexes with, under
 * that table's own seed.
 */
export function mixHash(hash: number, seed: number): number {
  let h = hash ^ seed;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
