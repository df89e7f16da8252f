/**
 * Test-only parts of the source cache: an in-memory {@link BaselineStore} that records which sources were
 * touched, an in-memory provider whose people change between reads (its live adapter and its change feed),
 * and a full sync that fills a baseline from a feed. The deployed store is the DynamoDB one.
 */
import { normaliseEmail, normalisePhone, singleKeyRecordRef } from '../../lambda/federation/index.js';
import type { RawRecord, SourceAdapter, SourceQuery, SourceRef } from '../../lambda/federation/index.js';
import { matchRecords } from '../../lambda/sources/index.js';
import type {
  BaselineLookup,
  BaselineState,
  BaselineStore,
  ChangeBatch,
  ChangeFeed,
  SyncLease,
} from '../../lambda/sources/cache/port.js';

/** A baseline store in memory; `touched` lists every source id a call named, in call order. */
export class MemoryBaselineStore implements BaselineStore {
  readonly touched: string[] = [];
  readonly #states = new Map<string, BaselineState>();
  readonly #records = new Map<string, Map<string, { record: RawRecord; syncId?: string }>>();
  /** Set to make every call reject (a store outage). */
  failing = false;

  #of(sourceId: string) {
    this.touched.push(sourceId);
    if (this.failing) throw new Error('store unavailable');
    let records = this.#records.get(sourceId);
    if (records === undefined) {
      records = new Map<string, { record: RawRecord; syncId?: string }>();
      this.#records.set(sourceId, records);
    }
    return records;
  }

  readState(sourceId: string): Promise<BaselineState | undefined> {
    return Promise.resolve().then(() => (this.#of(sourceId), this.#states.get(sourceId)));
  }

  writeState(state: BaselineState): Promise<void> {
    this.#of(state.sourceId);
    this.#states.set(state.sourceId, state);
    return Promise.resolve();
  }

  acquireLease(sourceId: string, owner: string, ttlMs: number): Promise<SyncLease | undefined> {
    this.#of(sourceId);
    return Promise.resolve({ sourceId, owner, expiresAt: Date.now() + ttlMs });
  }

  releaseLease(): Promise<void> {
    return Promise.resolve();
  }

  async *readPages(sourceId: string, pageSize: number): AsyncIterable<readonly RawRecord[]> {
    const all = [...this.#of(sourceId).values()]
      .map((item) => item.record)
      .sort((a, b) => (a.external_id < b.external_id ? -1 : a.external_id > b.external_id ? 1 : 0));
    for (let i = 0; i < all.length; i += pageSize) {
      await Promise.resolve();
      yield all.slice(i, i + pageSize);
    }
  }

  lookup(sourceId: string, lookup: BaselineLookup): Promise<readonly RawRecord[]> {
    const found = [...this.#of(sourceId).values()]
      .map((item) => item.record)
      .filter(
        (r) =>
          (lookup.recordRef !== undefined && singleKeyRecordRef(r) === lookup.recordRef) ||
          (lookup.email !== undefined && normaliseEmail(r.email) === lookup.email) ||
          (lookup.phone !== undefined && normalisePhone(r.phone) === lookup.phone),
      );
    return Promise.resolve(found);
  }

  put(sourceId: string, records: readonly RawRecord[], syncId?: string): Promise<void> {
    const items = this.#of(sourceId);
    for (const record of records)
      items.set(record.external_id, syncId === undefined ? { record } : { record, syncId });
    return Promise.resolve();
  }

  remove(sourceId: string, externalIds: readonly string[]): Promise<void> {
    const items = this.#of(sourceId);
    for (const id of externalIds) items.delete(id);
    return Promise.resolve();
  }

  sweep(sourceId: string, syncId: string): Promise<number> {
    const items = this.#of(sourceId);
    let removed = 0;
    for (const [id, item] of items)
      if (item.syncId !== syncId) {
        items.delete(id);
        removed++;
      }
    return Promise.resolve(removed);
  }

  purge(sourceId: string): Promise<void> {
    this.#of(sourceId).clear();
    this.#states.delete(sourceId);
    return Promise.resolve();
  }
}

/**
 * A provider in memory: people change between reads; its live adapter answers with the kernel's matching,
 * its feed reports what changed since a watermark (a change counter) and, with `tombstones`, what was deleted.
 */
export class MemoryProvider {
  readonly #people = new Map<string, { record: RawRecord; seq: number }>();
  readonly #deleted = new Map<string, number>();
  #seq = 0;
  /** Reads of the live adapter and the feed. */
  liveReads = 0;
  feedReads = 0;
  /** Set to make the feed throw this once asked for changes since a watermark. */
  deltaFailure: Error | undefined;

  constructor(
    readonly source: SourceRef,
    readonly tombstones = true,
  ) {}

  /** Adds or replaces a person (a change the feed reports). */
  upsert(external_id: string, fields: Partial<RawRecord> = {}): void {
    const record: RawRecord = {
      ...this.source,
      external_id,
      record_type: 'person',
      observed_at: new Date(Date.UTC(2026, 9, 8, 12, 0, ++this.#seq)).toISOString(),
      capabilities: ['read'],
      display_name: `Person ${external_id}`,
      ...fields,
    };
    this.#people.set(external_id, { record, seq: this.#seq });
    this.#deleted.delete(external_id);
  }

  delete(external_id: string): void {
    this.#people.delete(external_id);
    this.#deleted.set(external_id, ++this.#seq);
  }

  get people(): RawRecord[] {
    return [...this.#people.values()].map((p) => p.record);
  }

  get live(): SourceAdapter {
    return {
      source: this.source,
      read: async function* (this: MemoryProvider, query: SourceQuery) {
        this.liveReads++;
        await Promise.resolve();
        yield matchRecords(this.people, query);
      }.bind(this),
    };
  }

  get feed(): ChangeFeed {
    return {
      tombstones: this.tombstones,
      changes: async function* (this: MemoryProvider, watermark: string | undefined) {
        this.feedReads++;
        await Promise.resolve();
        if (watermark !== undefined && this.deltaFailure !== undefined) throw this.deltaFailure;
        const since = watermark === undefined ? -1 : Number(watermark);
        const batch: ChangeBatch = {
          upserts: [...this.#people.values()].filter((p) => p.seq > since).map((p) => p.record),
          deletes:
            this.tombstones && watermark !== undefined
              ? [...this.#deleted].filter(([, seq]) => seq > since).map(([id]) => id)
              : [],
          watermark: String(this.#seq),
        };
        yield batch;
      }.bind(this),
    };
  }
}

/** A full sync as the sync worker runs it: every record put, the rest swept, the state `ready` at `at`. */
export async function fullSync(
  store: BaselineStore,
  sourceId: string,
  feed: ChangeFeed,
  at = new Date().toISOString(),
): Promise<void> {
  const syncId = `sync-${at}`;
  let watermark: string | undefined;
  let count = 0;
  const signal = new AbortController().signal;
  for await (const batch of feed.changes(undefined, { signal, deadline: Date.now() + 60_000 })) {
    await store.put(sourceId, batch.upserts, syncId);
    count += batch.upserts.length;
    watermark = batch.watermark ?? watermark;
  }
  await store.sweep(sourceId, syncId);
  await store.writeState({
    sourceId,
    status: 'ready',
    ...(watermark === undefined ? {} : { watermark }),
    lastFullSyncAt: at,
    recordCount: count,
  });
}
