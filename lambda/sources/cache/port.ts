/**
 * The source cache's ports: the baseline store (one item per record per source, plus one sync-state item per
 * source) and a provider's change feed. The sync worker writes baselines through them; the read path streams a
 * baseline and applies the delta since its watermark. The DynamoDB store in `lambda/aws` matches
 * {@link BaselineStore} structurally (it may not import `lambda/sources`); the composition root joins them.
 */
import type { RawRecord, ReadOptions } from '../../federation/index.js';

/** How a source's baseline stands. `ready` is the only status a read may use. */
export type BaselineStatus = 'empty' | 'syncing' | 'ready' | 'failed';

/** The sync-state item of one source. Timestamps are ISO 8601 instants. */
export interface BaselineState {
  readonly sourceId: string;
  readonly status: BaselineStatus;
  /**
   * Where the next delta starts, as the change feed wrote it (a timestamp, an AD `uSNChanged`, a Graph delta
   * link). Opaque outside the feed that wrote it; never logged (a delta link is a credential-like URL).
   */
  readonly watermark?: string;
  /** When the baseline last finished a full read; with `lastDeltaSyncAt`, its age. */
  readonly lastFullSyncAt?: string;
  readonly lastDeltaSyncAt?: string;
  readonly recordCount: number;
  /**
   * A full sync larger than one invocation can read resumes here (a provider page cursor); absent when no
   * full sync is under way.
   */
  readonly checkpoint?: string;
}

/** One record as the baseline keeps it: the validated raw record of the source. */
export type BaselineRecord = RawRecord;

/** The identity keys the store indexes, so `get_person` is a keyed read, never a scan. */
export interface BaselineLookup {
  /** `singleKeyRecordRef` of the record's own provenance key. */
  readonly recordRef?: string;
  /** Normalised as the identity rules normalise them (`normaliseEmail`, `normalisePhone`). */
  readonly email?: string;
  readonly phone?: string;
}

/** A lease on one source's sync: at most one sync per source runs at a time. */
export interface SyncLease {
  readonly sourceId: string;
  readonly owner: string;
  /** Epoch milliseconds after which another worker may take the lease. */
  readonly expiresAt: number;
}

/** The baseline store. Every method is scoped to one source id: no call reads two sources' items. */
export interface BaselineStore {
  readState(sourceId: string): Promise<BaselineState | undefined>;
  writeState(state: BaselineState): Promise<void>;
  /** Takes the source's lease when it is free or expired; `undefined` when another worker holds it. */
  acquireLease(sourceId: string, owner: string, ttlMs: number): Promise<SyncLease | undefined>;
  releaseLease(lease: SyncLease): Promise<void>;
  /**
   * The baseline's records in pages of at most `pageSize` (the first of at most `firstPageSize`, by default
   * `pageSize`), in a stable order.
   */
  readPages(
    sourceId: string,
    pageSize: number,
    signal: AbortSignal,
    firstPageSize?: number,
  ): AsyncIterable<readonly BaselineRecord[]>;
  /** The records of one source whose indexed keys equal any of `lookup`'s. */
  lookup(sourceId: string, lookup: BaselineLookup): Promise<readonly BaselineRecord[]>;
  /** Adds or replaces records by `external_id`, stamped with the full sync that saw them (when one runs). */
  put(sourceId: string, records: readonly BaselineRecord[], syncId?: string): Promise<void>;
  /** Removes records by `external_id`; unknown ids are ignored. */
  remove(sourceId: string, externalIds: readonly string[]): Promise<void>;
  /** Removes every record of the source not seen by the full sync stamped `syncId` (the sweep after it). */
  sweep(sourceId: string, syncId: string): Promise<number>;
  /** Removes every item of a source (a source removed from the directory, or an operator's purge). */
  purge(sourceId: string): Promise<void>;
  /** The ids of every source the store holds a sync state for (what a purge of removed sources compares). */
  sourceIds(): Promise<readonly string[]>;
}

/** One batch of a change feed: records added or changed, records gone, and where the feed now stands. */
export interface ChangeBatch {
  readonly upserts: readonly BaselineRecord[];
  readonly deletes: readonly string[];
  /** Present on the batch after which the feed may resume; the last batch always carries it. */
  readonly watermark?: string;
  /**
   * On a full read (`changes(undefined, …)`), where the read continues after this batch: passed back as
   * `resumeFrom`, the next invocation reads on from here instead of starting again. Opaque, like a watermark,
   * and never logged (it may hold a provider's next link).
   */
  readonly checkpoint?: string;
}

/** Why a feed cannot continue from a watermark (a Graph delta link expired): the caller runs a full sync. */
export class WatermarkExpiredError extends Error {
  override readonly name = 'WatermarkExpiredError';
}

/**
 * A provider's change feed. `changes(undefined)` is a full read that ends with the watermark to resume from;
 * `changes(watermark)` yields what changed since. `changes(undefined, options, checkpoint)` continues a full
 * read an earlier invocation stopped after the batch that carried `checkpoint`. A feed without tombstones yields no deletes: the sync's
 * periodic full read and sweep remove what is gone.
 */
export interface ChangeFeed {
  /** Whether its deltas report deletions. */
  readonly tombstones: boolean;
  /**
   * Whether the sync still runs the periodic full read and sweep: some departures never reach a delta even
   * with tombstones (an LDAP entry moved out of the base DN). @default !tombstones
   */
  readonly sweeps?: boolean;
  changes(
    watermark: string | undefined,
    options: ReadOptions,
    resumeFrom?: string,
  ): AsyncIterable<ChangeBatch>;
}

/**
 * A source's cache policy, from its definition's `cache` object (`{ enabled, refresh, max_staleness }`, ISO 8601
 * durations) once validated. Absent on a source that is not cached.
 */
export interface SourceCachePolicy {
  /** How often the scheduled sync refreshes the baseline (a delta sync; a full sync when the feed needs one). */
  readonly refreshMs: number;
  /** The oldest baseline a read may use; an older or missing baseline means a live read. */
  readonly maxStalenessMs: number;
}
