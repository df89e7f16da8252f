/**
 * The final merge's identity index, built incrementally as records are delivered (DESIGN §4 identity rules).
 * The union–find and the email/phone/provenance-key indexes grow with each record, so the final result only
 * walks the clusters. Each record is kept as its standalone {@link FederatedRecord} (the very object its page
 * published) and its sort name, not as a {@link NormalizedRecord}, so fewer objects live until the end of the
 * run. The output is exactly `federate(every delivered record)`, however the records were chunked
 * (property-tested in test/unit/federation/identity-index.test.ts).
 */
import { federate, isNewer, merge, resultOrder, single } from './identity.js';
import { normaliseEmail, normalisePhone } from './normalize.js';
import { provenanceKey } from './record-ref.js';
import { parseInstant } from './timestamps.js';
import type { FederatedRecord, ProvenanceEntry } from './types.js';
import type { NormalizedRecord } from './validate.js';

/** Every delivered record of one run, indexed for the final merge as it arrives. */
export class IdentityIndex {
  /**
   * Per slot (one per provenance key): the standalone record and its sort name. Its other keys are derived
   * from the record again when needed (merges and repeats, which are rare): arrays of pointers to young
   * objects cost the garbage collector on every scavenge.
   */
  readonly #records: FederatedRecord[] = [];
  readonly #names: (string | null)[] = [];
  /** Union–find over slots (path halving, union by size). */
  readonly #parent: number[] = [];
  readonly #size: number[] = [];
  /** The latest slot per normalised email / phone: chaining each record to the previous one joins them all. */
  readonly #byEmail = new Map<string, number>();
  readonly #byPhone = new Map<string, number>();
  /** source_type → source_identity → external_id → slot: rule 1 without building a key string per record. */
  readonly #byKey = new Map<string, Map<string, Map<string, number>>>();
  /** A repeated key changed its email or phone: unions cannot be undone, so the result is computed afresh. */
  #rebuild = false;

  /**
   * Adds a chunk of delivered records. Returns whether any of them joins another record of the same chunk or
   * repeats a provenance key: only then does the chunk's page need source-local federation; otherwise every
   * record stands alone in it.
   */
  addChunk(chunk: readonly NormalizedRecord[]): boolean {
    const start = this.#records.length;
    let linked = false;
    for (const record of chunk) if (this.#add(record, start)) linked = true;
    return linked;
  }

  /** Adds one record; true when it meets a slot at or after `chunkStart` (the same chunk) or is a repeat. */
  #add(r: NormalizedRecord, chunkStart: number): boolean {
    const ids = this.#idsOf(r.entry);
    const existing = ids.get(r.entry.external_id);
    if (existing !== undefined) {
      // A repeat is not indexed by its email or phone, so its page always takes the full federation.
      this.#replace(existing, r);
      return true;
    }
    const slot = this.#records.length;
    ids.set(r.entry.external_id, slot);
    this.#records.push(single(r));
    this.#names.push(r.nameKey);
    this.#parent.push(slot);
    this.#size.push(1);
    let linked = false;
    if (r.emailKey !== null) {
      const previous = this.#byEmail.get(r.emailKey);
      this.#byEmail.set(r.emailKey, slot);
      if (previous !== undefined) {
        this.#union(slot, previous);
        if (previous >= chunkStart) linked = true;
      }
    }
    if (r.phoneKey !== null) {
      const previous = this.#byPhone.get(r.phoneKey);
      this.#byPhone.set(r.phoneKey, slot);
      if (previous !== undefined) {
        this.#union(slot, previous);
        if (previous >= chunkStart) linked = true;
      }
    }
    return linked;
  }

  #idsOf(entry: ProvenanceEntry): Map<string, number> {
    let byIdentity = this.#byKey.get(entry.source_type);
    if (byIdentity === undefined) {
      byIdentity = new Map<string, Map<string, number>>();
      this.#byKey.set(entry.source_type, byIdentity);
    }
    let ids = byIdentity.get(entry.source_identity);
    if (ids === undefined) {
      ids = new Map<string, number>();
      byIdentity.set(entry.source_identity, ids);
    }
    return ids;
  }

  /** A provider repeated a key: the newest version wins the slot (same rule as `dedupeByKey`). */
  #replace(slot: number, r: NormalizedRecord): void {
    const current = this.#member(slot);
    if (!isNewer(r, current)) return;
    if (r.emailKey !== current.emailKey || r.phoneKey !== current.phoneKey) this.#rebuild = true;
    this.#records[slot] = single(r);
    this.#names[slot] = r.nameKey;
  }

  #find(i: number): number {
    const parent = this.#parent;
    while (parent[i] !== i) {
      const grand = parent[parent[i]!]!;
      parent[i] = grand;
      i = grand;
    }
    return i;
  }

  #union(a: number, b: number): void {
    let ra = this.#find(a);
    let rb = this.#find(b);
    if (ra === rb) return;
    const size = this.#size;
    if (size[ra]! < size[rb]!) [ra, rb] = [rb, ra];
    this.#parent[rb] = ra;
    size[ra]! += size[rb]!;
  }

  /**
   * A slot as a NormalizedRecord again (only for merged clusters, repeats and rebuilds: rare). Its keys are
   * recomputed from the record's own values by the same pure functions validation used, so they are equal.
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
      emailKey: normaliseEmail(record.email),
      phoneKey: normalisePhone(record.phone),
      observedMs: parseInstant(entry.observed_at),
      nameKey: this.#names[slot] ?? null,
      standalone: record,
    };
  }

  /** The standalone records whose own ref is `ref` (get_person's anchors). */
  recordsWithRef(ref: string): FederatedRecord[] {
    return this.#records.filter((record) => record.record_ref === ref);
  }

  /** The authoritative final records: every cluster merged, in result order. */
  result(): FederatedRecord[] {
    const count = this.#records.length;
    if (this.#rebuild) return federate(Array.from({ length: count }, (_, slot) => this.#member(slot)));
    const out: FederatedRecord[] = [];
    const names: (string | null)[] = [];
    const groups = new Map<number, number[]>();
    for (let slot = 0; slot < count; slot++) {
      const root = this.#find(slot);
      if (this.#size[root] === 1) {
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
}
