/**
 * The operation's identity rules (DESIGN §4): union–find over provenance keys, normalised emails and
 * normalised phones, then one {@link FederatedRecord} per cluster. The output depends only on the set of
 * input records, never on their order, so the same inputs give byte-identical JSON.
 */
import type { NormalizedRecord } from './validate.js';
import type { FederatedRecord, IdentityMatch, MatchKind } from './types.js';

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Orders by provenance key: the tuple (source_type, source_identity, external_id). The same order as comparing
 * `key` strings (no part holds a NUL, the smallest unit), without building or flattening them.
 */
const byKey = (a: NormalizedRecord, b: NormalizedRecord) =>
  compareText(a.entry.source_type, b.entry.source_type) ||
  compareText(a.entry.source_identity, b.entry.source_identity) ||
  compareText(a.entry.external_id, b.entry.external_id);

/** Scalar precedence: latest `observed_at` first, ties by provenance key (DESIGN §4). */
const byPrecedence = (a: NormalizedRecord, b: NormalizedRecord) => b.observedMs - a.observedMs || byKey(a, b);

/** A total order on two versions of the same provenance key; only ties on `observed_at` need the slow part. */
export function isNewer(candidate: NormalizedRecord, current: NormalizedRecord): boolean {
  if (candidate.observedMs !== current.observedMs) return candidate.observedMs > current.observedMs;
  return canonical(candidate) > canonical(current);
}

const canonical = (r: NormalizedRecord) =>
  JSON.stringify([r.entry, r.display_name, r.email, r.phone, r.lifecycle, r.attributes]);

/**
 * Drops repeated provenance keys (a provider may return one record on two pages): the newest version wins,
 * so "duplicates dropped" never depends on arrival order.
 */
export function dedupeByKey(records: readonly NormalizedRecord[]): NormalizedRecord[] {
  const byKeyIndex = new Map<string, number>();
  const out: NormalizedRecord[] = [];
  for (const record of records) {
    const at = byKeyIndex.get(record.key);
    if (at === undefined) {
      byKeyIndex.set(record.key, out.length);
      out.push(record);
    } else if (isNewer(record, out[at]!)) out[at] = record;
  }
  return out;
}

/** Union–find with path halving and union by size: near-constant time per operation, no quadratic work. */
/** Each cluster as a record index (a singleton, most of them) or the indexes of its members. */
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

/** Whether two of `members` share a non-null `pick` key. Small clusters (nearly all) compare pairwise. */
function shares(members: readonly NormalizedRecord[], pick: (m: NormalizedRecord) => string | null): boolean {
  if (members.length <= SMALL) {
    for (let i = 1; i < members.length; i++) {
      const key = pick(members[i]!);
      if (key === null) continue;
      for (let j = 0; j < i; j++) if (pick(members[j]!) === key) return true;
    }
    return false;
  }
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

/** Clusters up to this size are sorted and compared with simple loops, without allocating. */
const SMALL = 8;

/**
 * Sorts in place: insertion sort for small arrays (a cluster is usually 2–3 records; the built-in sort
 * allocates work arrays even for those), the built-in sort otherwise. Both are stable.
 */
function sortSmall<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > SMALL) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    let j = i - 1;
    while (j >= 0 && compare(items[j]!, item) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}

/** The first non-null `pick` value in precedence order. */
function firstOf(ranked: readonly NormalizedRecord[], pick: (r: NormalizedRecord) => string | null) {
  for (const r of ranked) {
    const value = pick(r);
    if (value !== null) return value;
  }
  return null;
}

/**
 * Shallow merge where the highest-precedence value of each attribute wins. Own keys only; `__proto__` is
 * defined as a plain own key (as Object.fromEntries would), never assigned, so it cannot change a prototype.
 */
function mergeAttributes(ranked: readonly NormalizedRecord[]): Record<string, unknown> {
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

/** The record standing alone, built once per record and shared by every page and final result holding it. */
export function single(r: NormalizedRecord): FederatedRecord {
  return (r.standalone ??= {
    record_ref: r.ref,
    display_name: r.display_name,
    email: r.email,
    phone: r.phone,
    lifecycle: r.lifecycle,
    sources: [r.entry],
    identity_match: null,
    attributes: r.attributes,
  });
}

/** One merged cluster and its sort key (the lower-cased name of the member its display_name came from). */
export interface Merged {
  readonly record: FederatedRecord;
  readonly nameKey: string | null;
}

/** Merges a cluster of two or more: sources in key order, scalars and attributes by precedence (DESIGN §4). */
export function merge(members: NormalizedRecord[]): Merged {
  const sorted = sortSmall([...members], byKey);
  const ranked = sortSmall(members, byPrecedence);
  const named = ranked.find((r) => r.display_name !== null);
  const identity_match: IdentityMatch = { matched_on: matchedOn(sorted), source_count: sorted.length };
  const record: FederatedRecord = {
    record_ref: sorted[0]!.ref,
    display_name: named?.display_name ?? null,
    email: firstOf(ranked, (r) => r.email),
    phone: firstOf(ranked, (r) => r.phone),
    lifecycle: firstOf(ranked, (r) => r.lifecycle),
    sources: sorted.map((r) => r.entry),
    identity_match,
    attributes: mergeAttributes(ranked),
  };
  return { record, nameKey: named?.nameKey ?? null };
}

/**
 * Sorts `records` into the result order: lower-cased display_name (records without one last), then
 * record_ref. `names[i]` is the sort name of `records[i]`, computed once per record at validation. Only the
 * order array is sorted, so the comparator reads two flat arrays and allocates nothing.
 */
export function resultOrder(records: FederatedRecord[], names: (string | null)[]): FederatedRecord[] {
  const refs = records.map((r) => r.record_ref);
  const order = records.map((_, i) => i);
  order.sort((i, j) =>
    compareOrder(names[i] as string | null, names[j] as string | null, refs[i]!, refs[j]!),
  );
  return order.map((i) => records[i]!);
}

/** The result order on (sort name, record_ref): names first, records without one last. */
function compareOrder(a: string | null, b: string | null, refA: string, refB: string): number {
  if (a !== b) {
    if (a === null) return 1;
    if (b === null) return -1;
    return a < b ? -1 : 1;
  }
  return refA < refB ? -1 : refA > refB ? 1 : 0;
}

/**
 * Sorts validated records in place into the order their standalone records would have in a result. A chunk
 * whose records all stand alone is then its own page, and handing it to the final merge's index in this order
 * leaves the index holding sorted runs, which the final sort (a merge sort that finds runs) merges cheaply.
 */
export function sortStandalone(records: NormalizedRecord[]): NormalizedRecord[] {
  return records.sort((x, y) => compareOrder(x.nameKey, y.nameKey, x.ref, y.ref));
}

/**
 * Federates records with the identity rules: used on each delivery page (source-local federation) and on
 * everything delivered (the authoritative final result).
 */
export function federate(records: readonly NormalizedRecord[]): FederatedRecord[] {
  const unique = dedupeByKey(records);
  const merged: FederatedRecord[] = [];
  const names: (string | null)[] = [];
  for (const group of clusters(unique)) {
    if (typeof group === 'number') {
      const r = unique[group]!;
      merged.push(single(r));
      names.push(r.nameKey);
    } else {
      const { record, nameKey } = merge(group.map((i) => unique[i]!));
      merged.push(record);
      names.push(nameKey);
    }
  }
  return resultOrder(merged, names);
}
