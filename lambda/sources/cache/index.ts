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
  SyncLease,
} from './port.js';
