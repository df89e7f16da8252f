/**
 * The final merge's store of delivered records (DESIGN §4 identity rules). While pages flow, a chunk is only
 * appended here and checked for links among its own records; the run-wide identity indexes (provenance key,
 * email, phone) are built once, in tight loops over flat per-slot storage, when the final result is asked for.
 * Looking records up among hundreds of thousands of keys costs mostly cache misses, and far fewer of them when
 * nothing else runs between lookups than when each delivery interleaves them with validation and page encoding.
 * The output is exactly `federate(every delivered record)`, however the records were chunked
 * (property-tested in test/unit/federation/identity-index.test.ts).
 */
import { ChunkLinks } from './chunk-links.js';
import { federate, isNewer, mergedRecord, sortSmall } from './identity.js';
import { sortResult } from './result-order.js';
import { SlotColumn, SlotNumbers } from './slot-columns.js';
import { EMPTY, SlotTable } from './slot-table.js';
import type { SlotTableOptions } from './slot-table.js';
import type { FederatedRecord, MatchKind } from './types.js';
import type { NormalizedRecord, ValidatedPage } from './validate.js';

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Per-slot numbers, in this order in {@link SlotNumbers}. */
const ID_HASH = 0;
const EMAIL_HASH = 1;
const PHONE_HASH = 2;
const SOURCE = 3;

/** Every delivered record of one run, kept for the final merge. */
export class IdentityIndex {
  /** Options of the final merge's key tables (tests force their give-up path with a tiny `maxProbes`). */
  readonly #tables: SlotTableOptions;
  /**
   * Per slot (one per delivered record, repeats included): the standalone record (the very object its page
   * published; its `sources[0]` is the provenance entry), the normalised email and phone, `observed_at` in ms,
   * and four numbers: the three key hashes and a number per source pair (the columns of a ValidatedPage,
   * appended).
   */
  readonly #records = new SlotColumn<FederatedRecord>();
  readonly #emails = new SlotColumn<string | null>();
  readonly #phones = new SlotColumn<string | null>();
  readonly #observed = new SlotNumbers(Float64Array, 1);
  readonly #numbers = new SlotNumbers(Int32Array, 4);
  readonly #sourceNumbers = new Map<string, Map<string, number>>();
  #lastEntry: { readonly source_type: string; readonly source_identity: string } | undefined;
  #lastSource = 0;
  #sourceCount = 0;
  /** The key checks of the chunk being added (reused from chunk to chunk). */
  readonly #chunkIds = new ChunkLinks();
  readonly #chunkEmails = new ChunkLinks();
  readonly #chunkPhones = new ChunkLinks();

  constructor(tables: SlotTableOptions = {}) {
    this.#tables = tables;
  }

  /** Delivered records so far. */
  get size(): number {
    return this.#records.length;
  }

  /**
   * Adds records `start..end` of `page` (a delivery chunk). Returns whether any two of them may meet (a shared
   * email or phone, or a repeated external id): only then does the chunk's page need source-local federation;
   * otherwise every record stands alone in it. A `true` may be a false alarm (the same external id under two
   * sources, or keys crafted to collide) and only costs a federation that changes nothing; a `false` is always
   * exact.
   */
  addChunk(page: ValidatedPage, start = 0, end = page.length): boolean {
    const { records, emailKeys, phoneKeys, observed, hashes } = page;
    const check = end - start > 1;
    if (check) {
      this.#chunkIds.start(end - start, (i) => records[start + i]!.sources[0]!.external_id);
      this.#chunkEmails.start(end - start, (i) => emailKeys[start + i]!);
      this.#chunkPhones.start(end - start, (i) => phoneKeys[start + i]!);
    }
    let linked = false;
    for (let i = start; i < end; i++) {
      const record = records[i]!;
      const emailKey = emailKeys[i]!;
      const phoneKey = phoneKeys[i]!;
      const idHash = hashes[3 * i]!;
      const emailHash = hashes[3 * i + 1]!;
      const phoneHash = hashes[3 * i + 2]!;
      this.#records.push(record);
      this.#emails.push(emailKey);
      this.#phones.push(phoneKey);
      this.#observed.push(observed[i]!);
      this.#numbers.push4(idHash, emailHash, phoneHash, this.#sourceNumber(record.sources[0]!));
      if (!check || linked) continue;
      const at = i - start;
      linked =
        this.#chunkIds.meets(idHash, at) ||
        (emailKey !== null && this.#chunkEmails.meets(emailHash, at)) ||
        (phoneKey !== null && this.#chunkPhones.meets(phoneHash, at));
    }
    return linked;
  }

  /** A small number per source pair (a chunk's records nearly always share the previous record's pair). */
  #sourceNumber(entry: { readonly source_type: string; readonly source_identity: string }): number {
    const last = this.#lastEntry;
    if (last?.source_type === entry.source_type && last.source_identity === entry.source_identity)
      return this.#lastSource;
    let byIdentity = this.#sourceNumbers.get(entry.source_type);
    if (byIdentity === undefined) {
      byIdentity = new Map<string, number>();
      this.#sourceNumbers.set(entry.source_type, byIdentity);
    }
    let number = byIdentity.get(entry.source_identity);
    if (number === undefined) {
      number = this.#sourceCount++;
      byIdentity.set(entry.source_identity, number);
    }
    this.#lastEntry = entry;
    this.#lastSource = number;
    return number;
  }

  /** A slot as a NormalizedRecord again (only for merged clusters and repeats: a minority). */
  #member(slot: number): NormalizedRecord {
    const numbers = this.#numbers;
    return {
      record: this.#records.at(slot),
      emailKey: this.#emails.at(slot),
      phoneKey: this.#phones.at(slot),
      observedMs: this.#observed.at(slot, 0),
      idHash: numbers.at(slot, ID_HASH),
      emailHash: numbers.at(slot, EMAIL_HASH),
      phoneHash: numbers.at(slot, PHONE_HASH),
    };
  }

  /**
   * Rule 1: one entry per provenance key, the newest version (same total order as `dedupeByKey`). Returns a
   * flag per slot, 1 for a version that lost, or `undefined` if the index gave up (see {@link SlotTable}).
   */
  #superseded(table: SlotTable): Uint8Array | undefined {
    const count = this.size;
    const lost = new Uint8Array(count);
    const numbers = this.#numbers;
    const records = this.#records;
    let id = '';
    let source = 0;
    // The same source pair and external id (a full hash match is confirmed on the strings).
    const same = (other: number) =>
      numbers.at(other, SOURCE) === source && records.at(other).sources[0]!.external_id === id;
    for (let slot = 0; slot < count; slot++) {
      source = numbers.at(slot, SOURCE);
      // The source number joins the id's hash: the same id under two sources is two keys.
      const hash = numbers.at(slot, ID_HASH) ^ Math.imul(source + 1, 0x9e3779b1);
      id = records.at(slot).sources[0]!.external_id;
      const cell = table.lookup(hash, same);
      if (cell === undefined) return undefined;
      const previous = table.slotAt(cell);
      if (previous === EMPTY) table.put(cell, slot, hash);
      else if (isNewer(this.#member(slot), this.#member(previous))) {
        lost[previous] = 1;
        table.put(cell, slot, hash);
      } else lost[slot] = 1;
    }
    return lost;
  }

  /** The standalone records whose own ref is `ref` (get_person's anchors). */
  recordsWithRef(ref: string): FederatedRecord[] {
    const out: FederatedRecord[] = [];
    for (let slot = 0; slot < this.size; slot++) {
      const record = this.#records.at(slot);
      if (record.record_ref === ref) out.push(record);
    }
    return out;
  }

  /**
   * The authoritative final records: every cluster merged, in result order. (Each step is a method or function
   * of its own with one loop: this runs once per run, and the optimising compiler then compiles each loop with
   * the feedback it has, instead of recompiling one large function whenever execution reaches a later loop.)
   */
  result(): FederatedRecord[] {
    const count = this.size;
    const table = new SlotTable(count, this.#tables);
    const lost = this.#superseded(table);
    const clusters = lost && this.#clusters(lost, table);
    // Keys crafted to collide: the same rules with Maps, over every delivered version.
    if (lost === undefined || clusters === undefined)
      return federate(Array.from({ length: count }, (_, slot) => this.#member(slot)));
    this.#sourceRanks = this.#rankSources();
    const lists = memberLists(clusters, lost);
    const out = new Array<FederatedRecord>(lists.singles + lists.heads.length);
    let at = this.#putSingles(out, clusters, lost);
    for (const root of lists.heads) out[at++] = this.#merge(membersOf(lists.next, root), clusters.shared);
    return sortResult(out);
  }

  /** Puts the records of one-record clusters into `out` from 0 on; returns how many. */
  #putSingles(out: FederatedRecord[], { parent, size }: Clusters, lost: Uint8Array): number {
    let at = 0;
    for (let slot = 0; slot < lost.length; slot++)
      if (lost[slot] === 0 && parent[slot] === slot && size[slot] === 1) out[at++] = this.#records.at(slot);
    return at;
  }

  /** Per source number, the rank of its source pair in key order (source_type, then source_identity). */
  #rankSources(): Int32Array {
    const pairs: [string, string, number][] = [];
    for (const [type, byIdentity] of this.#sourceNumbers)
      for (const [identity, number] of byIdentity) pairs.push([type, identity, number]);
    pairs.sort((a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]));
    const ranks = new Int32Array(this.#sourceCount);
    pairs.forEach(([, , number], rank) => (ranks[number] = rank));
    return ranks;
  }

  #sourceRanks: Int32Array = new Int32Array(0);

  /**
   * Provenance key order of two slots: by source pair (its rank), then external id. A cluster's members nearly
   * always come from different sources, so their entries are not read to order them.
   */
  readonly #byKey = (a: number, b: number): number =>
    this.#sourceRanks[this.#numbers.at(a, SOURCE)]! - this.#sourceRanks[this.#numbers.at(b, SOURCE)]! ||
    compareText(this.#records.at(a).sources[0]!.external_id, this.#records.at(b).sources[0]!.external_id);

  /** Scalar precedence of two slots: latest `observed_at` first, ties by provenance key (DESIGN §4). */
  readonly #byPrecedence = (a: number, b: number): number =>
    this.#observed.at(b, 0) - this.#observed.at(a, 0) || this.#byKey(a, b);

  /** The record of a multi-record cluster from its surviving slots (the same record `merge` makes). */
  #merge(slots: number[], shared: Uint8Array): FederatedRecord {
    let kinds = 0;
    for (const slot of slots) kinds |= shared[slot]!;
    const matchedOn: MatchKind[] = [];
    if ((kinds & SHARES_EMAIL) !== 0) matchedOn.push('email');
    if ((kinds & SHARES_PHONE) !== 0) matchedOn.push('phone');
    const sorted = sortSmall([...slots], this.#byKey);
    const ranked = sortSmall(slots, this.#byPrecedence);
    const records = this.#records;
    return mergedRecord(
      sorted.map((slot) => records.at(slot)),
      ranked.map((slot) => records.at(slot)),
      matchedOn,
    );
  }

  /**
   * Rules 2 and 3: union–find (path halving, union by size) over the surviving versions, joined through the
   * first slot seen with each normalised email and phone. A slot whose key met an earlier slot's is flagged:
   * that slot is in its cluster, so a cluster shares a key kind exactly when one of its members is flagged (no
   * key string is read again to name `matched_on`). `undefined` if an index gave up.
   */
  #clusters(lost: Uint8Array, table: SlotTable): Clusters | undefined {
    const count = lost.length;
    const parent = new Int32Array(count);
    for (let slot = 0; slot < count; slot++) parent[slot] = slot;
    const clusters: Clusters = { parent, size: new Int32Array(count).fill(1), shared: new Uint8Array(count) };
    table.clear(this.#tables);
    if (!this.#join(clusters, lost, table, this.#emails, EMAIL_HASH, SHARES_EMAIL)) return undefined;
    table.clear(this.#tables);
    if (!this.#join(clusters, lost, table, this.#phones, PHONE_HASH, SHARES_PHONE)) return undefined;
    return clusters;
  }

  /** Joins the surviving slots that share a key of one kind; `false` if the table gave up. */
  #join(
    { parent, size, shared }: Clusters,
    lost: Uint8Array,
    table: SlotTable,
    keys: SlotColumn<string | null>,
    hashAt: number,
    bit: number,
  ): boolean {
    const numbers = this.#numbers;
    let key = '';
    const same = (other: number) => keys.at(other) === key;
    for (let slot = 0; slot < lost.length; slot++) {
      const k = keys.at(slot);
      if (lost[slot] === 1 || k === null) continue;
      key = k;
      const hash = numbers.at(slot, hashAt);
      const cell = table.lookup(hash, same);
      if (cell === undefined) return false;
      const first = table.slotAt(cell);
      if (first === EMPTY) table.put(cell, slot, hash);
      else {
        union(parent, size, slot, first);
        shared[slot]! |= bit;
      }
    }
    return true;
  }
}

/** The union–find of the surviving versions, and per slot the key kinds it shares with an earlier one. */
interface Clusters {
  readonly parent: Int32Array;
  readonly size: Int32Array;
  readonly shared: Uint8Array;
}

const SHARES_EMAIL = 1;
const SHARES_PHONE = 2;

/** Each multi-record cluster's members as a list through `next` (ending at −1), headed at its root. */
interface MemberLists {
  readonly next: Int32Array;
  readonly heads: number[];
  /** The number of one-record clusters. */
  readonly singles: number;
}

/**
 * Lists the members of every multi-record cluster. A root's `size` is negated once its list has started
 * (union–find no longer needs it; `#putSingles` only reads sizes of 1).
 */
function memberLists({ parent, size }: Clusters, lost: Uint8Array): MemberLists {
  const next = new Int32Array(lost.length);
  const heads: number[] = [];
  let singles = 0;
  for (let slot = 0; slot < lost.length; slot++) {
    if (lost[slot] === 1) continue;
    const root = findRoot(parent, slot);
    if (size[root] === 1) {
      singles++;
      continue;
    }
    if (size[root]! > 0) {
      heads.push(root);
      size[root] = -size[root]!;
      next[root] = -1;
    }
    if (slot !== root) {
      next[slot] = next[root]!;
      next[root] = slot;
    }
  }
  return { next, heads, singles };
}

/** The members of the cluster whose root is `root`. */
function membersOf(next: Int32Array, root: number): number[] {
  const members = [root];
  for (let slot = next[root]!; slot !== -1; slot = next[slot]!) members.push(slot);
  return members;
}

function findRoot(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    const grand = parent[parent[i]!]!;
    parent[i] = grand;
    i = grand;
  }
  return i;
}

function union(parent: Int32Array, size: Int32Array, a: number, b: number): void {
  let ra = findRoot(parent, a);
  let rb = findRoot(parent, b);
  if (ra === rb) return;
  if (size[ra]! < size[rb]!) [ra, rb] = [rb, ra];
  parent[rb] = ra;
  size[ra]! += size[rb]!;
}
