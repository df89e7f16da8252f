/**
 * The final merge's store of delivered records (DESIGN §4 identity rules). While pages flow, a chunk is only
 * appended here and checked for links among its own records; the run-wide identity indexes (provenance key,
 * email, phone) are built once, in tight loops over flat per-slot arrays, when the final result is asked for.
 * Looking records up among hundreds of thousands of keys costs mostly cache misses, and far fewer of them when
 * nothing else runs between lookups than when each delivery interleaves them with validation and page encoding.
 * The output is exactly `federate(every delivered record)`, however the records were chunked
 * (property-tested in test/unit/federation/identity-index.test.ts).
 */
import { federate, isNewer, merge, resultOrder, single } from './identity.js';
import { provenanceKey } from './record-ref.js';
import { EMPTY, SlotTable } from './slot-table.js';
import type { SlotKeys, SlotTableOptions } from './slot-table.js';
import type { FederatedRecord } from './types.js';
import type { NormalizedRecord } from './validate.js';

/** Every delivered record of one run, kept for the final merge. */
export class IdentityIndex {
  /** Options of the final merge's key tables (tests force their give-up path with a tiny `maxProbes`). */
  readonly #tables: SlotTableOptions;
  /**
   * Per slot (one per delivered record, repeats included): the standalone record (the very object its page
   * published) and the keys validation computed for it. Flat arrays rather than the NormalizedRecord itself:
   * fewer objects stay alive until the end of the run, and `#observed` holds unboxed numbers.
   */
  readonly #records: FederatedRecord[] = [];
  readonly #names: (string | null)[] = [];
  readonly #emails: (string | null)[] = [];
  readonly #phones: (string | null)[] = [];
  readonly #observed: number[] = [];
  /** external_id and a number per source pair: rule 1's key, without building a key string per record. */
  readonly #ids: string[] = [];
  readonly #sources: number[] = [];
  readonly #sourceNumbers = new Map<string, Map<string, number>>();
  #lastEntry: { readonly source_type: string; readonly source_identity: string } | undefined;
  #lastSource = 0;
  #sourceCount = 0;
  /** Reused per chunk (cleared each time): the keys seen so far in the chunk being added. */
  readonly #chunkIds = new Set<string>();
  readonly #chunkEmails = new Set<string>();
  readonly #chunkPhones = new Set<string>();

  constructor(tables: SlotTableOptions = {}) {
    this.#tables = tables;
  }

  /**
   * Adds a chunk of delivered records. Returns whether any two of them may meet (a shared email or phone, or
   * a repeated external id): only then does the chunk's page need source-local federation; otherwise every
   * record stands alone in it. A `true` may be a false alarm (the same external id under two sources) and
   * only costs a federation that changes nothing; a `false` is always exact.
   */
  addChunk(chunk: readonly NormalizedRecord[]): boolean {
    let linked = false;
    for (const r of chunk) {
      this.#records.push(single(r));
      this.#names.push(r.nameKey);
      this.#emails.push(r.emailKey);
      this.#phones.push(r.phoneKey);
      this.#observed.push(r.observedMs);
      this.#ids.push(r.entry.external_id);
      this.#sources.push(this.#sourceNumber(r.entry));
      if (!linked && chunk.length > 1) linked = this.#meetsChunk(r);
    }
    this.#chunkIds.clear();
    this.#chunkEmails.clear();
    this.#chunkPhones.clear();
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

  /** Whether `r` shares a key with an earlier record of the chunk being added (and remembers its keys). */
  #meetsChunk(r: NormalizedRecord): boolean {
    const id = r.entry.external_id;
    if (this.#chunkIds.has(id)) return true;
    this.#chunkIds.add(id);
    if (r.emailKey !== null) {
      if (this.#chunkEmails.has(r.emailKey)) return true;
      this.#chunkEmails.add(r.emailKey);
    }
    if (r.phoneKey !== null) {
      if (this.#chunkPhones.has(r.phoneKey)) return true;
      this.#chunkPhones.add(r.phoneKey);
    }
    return false;
  }

  /**
   * A slot as a NormalizedRecord again (only for merged clusters and repeats: a minority). Every key comes
   * from what validation stored, so nothing is normalised twice.
   */
  #member(slot: number): NormalizedRecord {
    const record = this.#records[slot]!;
    const entry = record.sources[0]!;
    return {
      entry,
      key: provenanceKey(entry),
      ref: record.record_ref,
      display_name: record.display_name,
      email: record.email,
      phone: record.phone,
      lifecycle: record.lifecycle,
      attributes: record.attributes,
      emailKey: this.#emails[slot] ?? null,
      phoneKey: this.#phones[slot] ?? null,
      observedMs: this.#observed[slot]!,
      nameKey: this.#names[slot] ?? null,
      standalone: record,
    };
  }

  /**
   * Rule 1: one entry per provenance key, the newest version (same total order as `dedupeByKey`). Returns a
   * flag per slot, 1 for a version that lost, or `undefined` if the index gave up (see {@link SlotTable}).
   */
  #superseded(): Uint8Array | undefined {
    const count = this.#records.length;
    const lost = new Uint8Array(count);
    const table = new SlotTable(count, this.#tables);
    const byKey: SlotKeys = { keys: this.#ids, tags: this.#sources };
    for (let slot = 0; slot < count; slot++) {
      const cell = table.lookup(this.#ids[slot]!, this.#sources[slot]!, byKey);
      if (cell === undefined) return undefined;
      const previous = table.slotAt(cell);
      if (previous === EMPTY) table.put(cell, slot);
      else if (isNewer(this.#member(slot), this.#member(previous))) {
        lost[previous] = 1;
        table.put(cell, slot);
      } else lost[slot] = 1;
    }
    return lost;
  }

  /** The standalone records whose own ref is `ref` (get_person's anchors). */
  recordsWithRef(ref: string): FederatedRecord[] {
    return this.#records.filter((record) => record.record_ref === ref);
  }

  /** The authoritative final records: every cluster merged, in result order. */
  result(): FederatedRecord[] {
    const count = this.#records.length;
    const lost = this.#superseded();
    const roots = lost && this.#clusters(lost);
    // Keys crafted to collide: the same rules with Maps, over every delivered version.
    if (lost === undefined || roots === undefined)
      return federate(Array.from({ length: count }, (_, slot) => this.#member(slot)));
    const { parent, size } = roots;
    const out: FederatedRecord[] = [];
    const names: (string | null)[] = [];
    const groups = new Map<number, number[]>();
    for (let slot = 0; slot < count; slot++) {
      if (lost[slot] === 1) continue;
      const root = findRoot(parent, slot);
      if (size[root] === 1) {
        out.push(this.#records[slot]!);
        names.push(this.#names[slot] ?? null);
        continue;
      }
      const group = groups.get(root);
      if (group === undefined) groups.set(root, [slot]);
      else group.push(slot);
    }
    for (const group of groups.values()) {
      const { record, nameKey } = merge(group.map((slot) => this.#member(slot)));
      out.push(record);
      names.push(nameKey);
    }
    return resultOrder(out, names);
  }

  /**
   * Rules 2 and 3: union–find (path halving, union by size) over the surviving versions, joined through the
   * first slot seen with each normalised email and phone. `undefined` if an index gave up.
   */
  #clusters(lost: Uint8Array): { parent: Int32Array; size: Int32Array } | undefined {
    const count = lost.length;
    const parent = new Int32Array(count);
    const size = new Int32Array(count).fill(1);
    for (let slot = 0; slot < count; slot++) parent[slot] = slot;
    for (const keys of [this.#emails, this.#phones]) {
      const table = new SlotTable(count, this.#tables);
      const of: SlotKeys = { keys };
      for (let slot = 0; slot < count; slot++) {
        const key = keys[slot];
        if (lost[slot] === 1 || key === null || key === undefined) continue;
        const cell = table.lookup(key, 0, of);
        if (cell === undefined) return undefined;
        const first = table.slotAt(cell);
        if (first === EMPTY) table.put(cell, slot);
        else union(parent, size, slot, first);
      }
    }
    return { parent, size };
  }
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
