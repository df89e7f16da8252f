/**
 * The operation's identity rules (DESIGN §4): union–find over provenance keys, normalised emails and
 * normalised phones, then one {@link FederatedRecord} per cluster. The output depends only on the set of
 * input records, never on their order, so the same inputs give byte-identical JSON.
 */
import { provenanceKey } from './record-ref.js';
import { compareText, sortResult } from './result-order.js';
import type { FederatedRecord, MatchKind, ProvenanceEntry } from './types.js';
import { entryOf } from './validate.js';
import type { NormalizedRecord } from './validate.js';

/**
 * Orders by provenance key: the tuple (source_type, source_identity, external_id). The same order as comparing
 * `key` strings (no part holds a NUL, the smallest unit), without building or flattening them.
 */
function byKey(a: NormalizedRecord, b: NormalizedRecord): number {
  const x = entryOf(a);
  const y = entryOf(b);
  return (
    compareText(x.source_type, y.source_type) ||
    compareText(x.source_identity, y.source_identity) ||
    compareText(x.external_id, y.external_id)
  );
}

/** Scalar precedence: latest `observed_at` first, ties by provenance key (DESIGN §4). */
const byPrecedence = (a: NormalizedRecord, b: NormalizedRecord) => b.observedMs - a.observedMs || byKey(a, b);

/** A total order on two versions of the same provenance key; only ties on `observed_at` need the slow part. */
function isNewer(candidate: NormalizedRecord, current: NormalizedRecord): boolean {
  if (candidate.observedMs !== current.observedMs) return candidate.observedMs > current.observedMs;
  return canonical(candidate) > canonical(current);
}

const canonical = ({ record: r }: NormalizedRecord) =>
  JSON.stringify([r.sources[0], r.display_name, r.email, r.phone, r.lifecycle, r.attributes]);

/**
 * Drops repeated provenance keys (a provider may return one record on two pages): the newest version wins,
 * so "duplicates dropped" never depends on arrival order.
 */
export function dedupeByKey(records: readonly NormalizedRecord[]): NormalizedRecord[] {
  const byKeyIndex = new Map<string, number>();
  const out: NormalizedRecord[] = [];
  for (const record of records) {
    const key = provenanceKey(entryOf(record));
    const at = byKeyIndex.get(key);
    if (at === undefined) {
      byKeyIndex.set(key, out.length);
      out.push(record);
    } else if (isNewer(record, out[at]!)) out[at] = record;
  }
  return out;
}

/**
 * Each cluster as a record index (a singleton, most of them) or the indexes of its members. Union–find with
 * path halving and union by size: near-constant time per operation, no quadratic work.
 */
function clusters(records: readonly NormalizedRecord[]): (number | number[])[] {
  const parent = new Int32Array(records.length);
  const size = new Int32Array(records.length).fill(1);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number) => {
    let ra = find(a);
    let rb = find(b);
    if (ra === rb) return;
    if (size[ra]! < size[rb]!) [ra, rb] = [rb, ra];
    parent[rb] = ra;
    size[ra]! += size[rb]!;
  };
  const firstWithEmail = new Map<string, number>();
  const firstWithPhone = new Map<string, number>();
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.emailKey !== null) {
      const j = firstWithEmail.get(r.emailKey);
      if (j === undefined) firstWithEmail.set(r.emailKey, i);
      else union(i, j);
    }
    if (r.phoneKey !== null) {
      const j = firstWithPhone.get(r.phoneKey);
      if (j === undefined) firstWithPhone.set(r.phoneKey, i);
      else union(i, j);
    }
  }
  // Singletons (most records) skip the grouping map entirely.
  const out: (number | number[])[] = [];
  const groups = new Map<number, number[]>();
  for (let i = 0; i < records.length; i++) {
    const root = find(i);
    if (size[root] === 1) {
      out.push(i);
      continue;
    }
    const group = groups.get(root);
    if (group === undefined) {
      const fresh = [i];
      groups.set(root, fresh);
      out.push(fresh);
    } else group.push(i);
  }
  return out;
}

/** Whether two of `members` share a non-null `pick` key. */
function shares(members: readonly NormalizedRecord[], pick: (m: NormalizedRecord) => string | null): boolean {
  const seen = new Set<string>();
  for (const m of members) {
    const key = pick(m);
    if (key === null) continue;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** The key kinds shared by at least two members (after dedupe, provenance keys never are). */
function matchedOn(members: readonly NormalizedRecord[]): MatchKind[] {
  const kinds: MatchKind[] = [];
  if (shares(members, (m) => m.emailKey)) kinds.push('email');
  if (shares(members, (m) => m.phoneKey)) kinds.push('phone');
  return kinds;
}

/**
 * Shallow merge where the highest-precedence value of each attribute wins. Own keys only; `__proto__` is
 * defined as a plain own key (as Object.fromEntries would), never assigned, so it cannot change a prototype.
 */
function mergeAttributes(ranked: readonly FederatedRecord[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of ranked) {
    const attributes = r.attributes;
    for (const key of Object.keys(attributes)) {
      if (Object.hasOwn(out, key)) continue;
      const value = attributes[key];
      if (key === '__proto__')
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
  }
  return out;
}

/**
 * The record of a cluster of two or more (DESIGN §4), from its members' standalone records listed in key order
 * (`sorted`: its sources, and its ref from the first) and in precedence order (`ranked`: scalars and attributes
 * from the first member that has them), and the key kinds its members share.
 */
function mergedRecord(
  sorted: readonly FederatedRecord[],
  ranked: readonly FederatedRecord[],
  matched_on: MatchKind[],
): FederatedRecord {
  let display_name: string | null = null;
  let email: string | null = null;
  let phone: string | null = null;
  let lifecycle: string | null = null;
  for (const r of ranked) {
    display_name ??= r.display_name;
    email ??= r.email;
    phone ??= r.phone;
    lifecycle ??= r.lifecycle;
  }
  const sources: ProvenanceEntry[] = [];
  for (const r of sorted) sources.push(r.sources[0]!);
  return {
    record_ref: sorted[0]!.record_ref,
    display_name,
    email,
    phone,
    lifecycle,
    sources,
    identity_match: { matched_on, source_count: sorted.length },
    attributes: mergeAttributes(ranked),
  };
}

const recordOf = (r: NormalizedRecord) => r.record;

/** Merges a cluster of two or more: sources in key order, scalars and attributes by precedence (DESIGN §4). */
export function merge(members: NormalizedRecord[]): FederatedRecord {
  const sorted = [...members].sort(byKey);
  const ranked = members.sort(byPrecedence);
  return mergedRecord(sorted.map(recordOf), ranked.map(recordOf), matchedOn(sorted));
}

/**
 * Federates records with the identity rules: used on each delivery page (source-local federation) and on
 * everything delivered (the authoritative final result).
 */
export function federate(records: readonly NormalizedRecord[]): FederatedRecord[] {
  const unique = dedupeByKey(records);
  const merged: FederatedRecord[] = [];
  for (const group of clusters(unique)) {
    merged.push(typeof group === 'number' ? unique[group]!.record : merge(group.map((i) => unique[i]!)));
  }
  return sortResult(merged);
}
