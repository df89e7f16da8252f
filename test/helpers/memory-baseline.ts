/**
 * Test-only parts of the source cache: an in-memory {@link BaselineStore} that records which sources were
 * touched, an in-memory provider whose people change between reads (its live adapter and its change feed),
 * and a full sync that fills a baseline from a feed. The deployed store is the DynamoDB one.
 */
import type { RawRecord, SourceAdapter, SourceQuery, SourceRef } from '../../lambda/federation/index.js';
import { matchRecords } from '../../lambda/sources/index.js';
import { createMemoryBaselineStore } from './memory-baseline-store.js';
import type {
  BaselineLookup,
  BaselineState,
  BaselineStore,
  ChangeBatch,
  ChangeFeed,
  SyncLease,
} from '../../lambda/sources/cache/index.js';

/**
 * The cache's in-memory store, recording every source id a call names (`touched`, in call order; `*` for a call
 * over all sources), and able to fail every call (a store outage).
 */
export class MemoryBaselineStore implements BaselineStore {
  readonly touched: string[] = [];
  /** Sources whose records were paged through (a listing, not a keyed read). */
  readonly listed: string[] = [];
  failing = false;
  readonly #inner = createMemoryBaselineStore();

  #touch(sourceId: string): void {
    this.touched.push(sourceId);
    if (this.failing) throw new Error('store unavailable');
  }

  async readState(sourceId: string): Promise<BaselineState | undefined> {
    await Promise.resolve();
    this.#touch(sourceId);
    return this.#inner.readState(sourceId);
  }

  writeState(state: BaselineState): Promise<void> {
    this.#touch(state.sourceId);
    return this.#inner.writeState(state);
  }

  acquireLease(sourceId: string, owner: string, ttlMs: number): Promise<SyncLease | undefined> {
    this.#touch(sourceId);
    return this.#inner.acquireLease(sourceId, owner, ttlMs);
  }

  releaseLease(lease: SyncLease): Promise<void> {
    this.#touch(lease.sourceId);
    return this.#inner.releaseLease(lease);
  }

  readPages(
    sourceId: string,
    pageSize: number,
    signal: AbortSignal,
    firstPageSize?: number,
  ): AsyncIterable<readonly RawRecord[]> {
    this.#touch(sourceId);
    this.listed.push(sourceId);
    return this.#inner.readPages(sourceId, pageSize, signal, firstPageSize);
  }

  lookup(sourceId: string, lookup: BaselineLookup): Promise<readonly RawRecord[]> {
    this.#touch(sourceId);
    return this.#inner.lookup(sourceId, lookup);
  }

  put(sourceId: string, records: readonly RawRecord[], syncId?: string): Promise<void> {
    this.#touch(sourceId);
    return this.#inner.put(sourceId, records, syncId);
  }

  remove(sourceId: string, externalIds: readonly string[]): Promise<void> {
    this.#touch(sourceId);
    return this.#inner.remove(sourceId, externalIds);
  }

  sweep(sourceId: string, syncId: string): Promise<number> {
    this.#touch(sourceId);
    return this.#inner.sweep(sourceId, syncId);
  }

  purge(sourceId: string): Promise<void> {
    this.#touch(sourceId);
    return this.#inner.purge(sourceId);
  }

  sourceIds(): Promise<readonly string[]> {
    this.#touch('*');
    return this.#inner.sourceIds();
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
