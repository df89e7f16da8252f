/** The source cache: its ports (baseline store, change feed) and the sync that keeps a baseline current. */
export { WatermarkExpiredError } from './port.js';
export type {
  BaselineLookup,
  BaselineRecord,
  BaselineState,
  BaselineStatus,
  BaselineStore,
  ChangeBatch,
  ChangeFeed,
  SourceCachePolicy,
  SweepCounts,
  SyncLease,
} from './port.js';
export { adapterChangeFeed, CLOCK_SKEW_MS } from './adapter-feed.js';
export type { AdapterFeedOptions, DeletionSource } from './adapter-feed.js';
export { CACHE_KINDS, changeFeedFor, kindMatchFor } from './feeds.js';
export type { CacheKind, ChangeFeedFactory, KindMatch } from './feeds.js';
export { syncSource } from './sync.js';
export type { SyncOutcome, SyncSourceOptions } from './sync.js';
export { FULL_SYNC_EVERY_MS, runSyncs } from './sync-run.js';
export type { SyncRunOptions, SyncRunResult } from './sync-run.js';
