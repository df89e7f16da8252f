/**
 * The result order (DESIGN §4): by lower-cased `display_name` (records without one last), then `record_ref`.
 * Every page and the final result are put in this order, so the same records give the same bytes whatever
 * order they arrived in.
 */
import { RECORD_REF_PREFIX } from './record-ref.js';
import type { FederatedRecord } from './types.js';

/**
 * Code-unit order of two strings (`<` on strings), as a comparator. Not `localeCompare`: the order must not depend
 * on the locale or ICU data of the process.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The result order on (sort name, record_ref): names first, records without one last. */
function compareOrder(a: string | null, b: string | null, refA: string, refB: string): number {
  if (a !== b) {
    if (a === null) return 1;
    if (b === null) return -1;
    return a < b ? -1 : 1;
  }
  return compareText(refA, refB);
}

/** Above this many records, {@link sortResult} compares numbers instead of strings (see `byRanks`). */
export const RANKED_SORT_FROM = 256;

/**
 * `records` in the result order (a new array). `rankedFrom` is {@link RANKED_SORT_FROM}; tests lower it to
 * check that both ways of sorting agree.
 */
export function sortResult(
  records: readonly FederatedRecord[],
  rankedFrom = RANKED_SORT_FROM,
): FederatedRecord[] {
  return records.length >= rankedFrom ? byRanks(records) : byNames(records);
}

/** A page-sized sort: each record's lower-cased name once, then string comparisons. */
function byNames(records: readonly FederatedRecord[]): FederatedRecord[] {
  const names = records.map((r) => (r.display_name === null ? null : r.display_name.toLowerCase()));
  const order = records.map((_, i) => i);
  order.sort((i, j) => compareOrder(names[i]!, names[j]!, records[i]!.record_ref, records[j]!.record_ref));
  return order.map((i) => records[i]!);
}

/**
 * The final result's sort. Comparing strings there costs mostly cache misses (two name strings and two refs
 * spread over the heap, for each of ~n·log n comparisons), and a comparator call per comparison. Instead each
 * record gets one number, and a Float64Array of them is sorted natively: the rank of its lower-cased name among
 * the distinct names (each distinct name is lower-cased once), then the first characters of its ref after the
 * shared `bos:person:` prefix (7 bits each: refs are base64url), then its index. Records equal on rank and those
 * characters are then put in order by their whole refs. Beyond 2^53 combinations (millions of records and of
 * distinct names) or with a ref outside ASCII, it sorts by strings instead. (Small functions, one loop each:
 * this runs once per run, so each loop is compiled with its own feedback.)
 */
function byRanks(records: readonly FederatedRecord[]): FederatedRecord[] {
  const n = records.length;
  const names = rankNames(records);
  const refStart = records.every((r) => r.record_ref.startsWith(RECORD_REF_PREFIX))
    ? RECORD_REF_PREFIX.length
    : 0;
  const indexBits = bitsFor(n);
  const chars = Math.min(7, Math.floor((53 - indexBits - bitsFor(names.ranks + 1)) / 7));
  const keys = chars < 1 ? undefined : packKeys(records, names, refStart, chars, 2 ** indexBits);
  if (keys === undefined) return byNames(records);
  keys.sort();
  return unpack(records, keys, 2 ** indexBits);
}

/** Each record's name rank (`ranks` for records without a name: they sort last). */
interface NameRanks {
  readonly of: Int32Array;
  /** The number of distinct lower-cased names. */
  readonly ranks: number;
}

/** Ranks the records' names: distinct names are lower-cased once, names equal but for case share a rank. */
function rankNames(records: readonly FederatedRecord[]): NameRanks {
  const idOfName = new Map<string, number>();
  const lowered: string[] = [];
  const nameIds = new Int32Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const name = records[i]!.display_name;
    if (name === null) {
      nameIds[i] = -1;
      continue;
    }
    let id = idOfName.get(name);
    if (id === undefined) {
      id = lowered.length;
      idOfName.set(name, id);
      lowered.push(name.toLowerCase());
    }
    nameIds[i] = id;
  }
  const byLowered = lowered.map((_, id) => id).sort((x, y) => compareText(lowered[x]!, lowered[y]!));
  const rankOfId = new Int32Array(lowered.length);
  let rank = -1;
  let previous: string | undefined;
  for (const id of byLowered) {
    if (lowered[id] !== previous) {
      rank++;
      previous = lowered[id];
    }
    rankOfId[id] = rank;
  }
  const ranks = rank + 1;
  for (let i = 0; i < nameIds.length; i++) nameIds[i] = nameIds[i]! < 0 ? ranks : rankOfId[nameIds[i]!]!;
  return { of: nameIds, ranks };
}

/**
 * One number per record: name rank, then `chars` characters of its ref from `refStart` (7 bits each), then its
 * index (below `indexScale`). `undefined` if a ref has a character outside ASCII there.
 */
function packKeys(
  records: readonly FederatedRecord[],
  names: NameRanks,
  refStart: number,
  chars: number,
  indexScale: number,
): Float64Array | undefined {
  const charScale = 2 ** (7 * chars);
  const keys = new Float64Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const ref = records[i]!.record_ref;
    let prefix = 0;
    for (let c = refStart; c < refStart + chars; c++) {
      const unit = ref.charCodeAt(c) || 0; // NaN past the end: a shorter ref sorts first, as strings do
      if (unit > 0x7f) return undefined;
      prefix = prefix * 128 + unit;
    }
    keys[i] = (names.of[i]! * charScale + prefix) * indexScale + i;
  }
  return keys;
}

/**
 * The records in the order of their sorted keys; records whose keys tie but for the index (equal rank and
 * ref prefix) are then sorted by their whole refs.
 */
function unpack(
  records: readonly FederatedRecord[],
  keys: Float64Array,
  indexScale: number,
): FederatedRecord[] {
  const n = records.length;
  const out = new Array<FederatedRecord>(n);
  for (let k = 0; k < n; k++) out[k] = records[keys[k]! % indexScale]!;
  for (let start = 0; start < n - 1;) {
    const group = Math.floor(keys[start]! / indexScale);
    let end = start + 1;
    while (end < n && Math.floor(keys[end]! / indexScale) === group) end++;
    if (end - start > 1) sortRunByRef(out, start, end);
    start = end;
  }
  return out;
}

/** Bits needed for the numbers 0..count−1. */
function bitsFor(count: number): number {
  let bits = 1;
  while (2 ** bits < count) bits++;
  return bits;
}

/**
 * Sorts `records[start..end)` by record_ref: by insertion for the usual run of two or three records, by the
 * built-in sort otherwise (refs ground to share a prefix must not make this quadratic).
 */
function sortRunByRef(records: FederatedRecord[], start: number, end: number): void {
  if (end - start > 8) {
    const run = records.slice(start, end).sort((a, b) => compareText(a.record_ref, b.record_ref));
    for (let i = 0; i < run.length; i++) records[start + i] = run[i]!;
    return;
  }
  for (let i = start + 1; i < end; i++) {
    const record = records[i]!;
    let j = i - 1;
    while (j >= start && records[j]!.record_ref > record.record_ref) {
      records[j + 1] = records[j]!;
      j--;
    }
    records[j + 1] = record;
  }
}
