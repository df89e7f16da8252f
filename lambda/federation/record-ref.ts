/**
 * Stable record references (DESIGN §4: `bos:person:` + a stable digest of the cluster's first provenance key).
 */
import * as crypto from 'node:crypto';

import type { ProvenanceEntry } from './types.js';

/** The prefix every person record_ref carries. */
export const RECORD_REF_PREFIX = 'bos:person:';

/**
 * The provenance key as one string. NUL separates the parts (validation rejects NUL inside them), so comparing
 * two keys as strings orders them exactly as comparing (source_type, source_identity, external_id) tuples.
 */
export function provenanceKey(
  entry: Pick<ProvenanceEntry, 'source_type' | 'source_identity' | 'external_id'>,
) {
  return `${entry.source_type}\u0000${entry.source_identity}\u0000${entry.external_id}`;
}

/**
 * `bos:person:` + the first 128 bits of SHA-256 over the key, base64url. A cryptographic digest keeps refs
 * unguessable from names and collision-free in practice; the same key always gives the same ref.
 */
export function recordRefOfKey(key: string): string {
  // `join` builds one flat 33-character string. `prefix + digest.slice(0, 22)` would keep a cons string, a
  // sliced string and the whole 43-character digest alive for every record until the end of the run (~70 bytes
  // more per record, and more objects for the garbage collector to trace).
  return [RECORD_REF_PREFIX, sha256(key).slice(0, 22)].join('');
}

// Node ≥ 20.12 has the one-shot crypto.hash (about 3× faster than createHash for short keys, and this runs once
// per record); @types/node 20 does not declare it yet, hence the cast and the fallback.
type OneShotHash = (algorithm: string, data: string, encoding: 'base64url') => string;
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;
const sha256 = (text: string): string =>
  oneShot !== undefined
    ? oneShot('sha256', text, 'base64url')
    : crypto.createHash('sha256').update(text).digest('base64url');

/** The ref a record would have if it stood alone: its own provenance key's digest. */
export function singleKeyRecordRef(
  entry: Pick<ProvenanceEntry, 'source_type' | 'source_identity' | 'external_id'>,
): string {
  return recordRefOfKey(provenanceKey(entry));
}
