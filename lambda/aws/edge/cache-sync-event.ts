/**
 * The event of a source cache sync invocation: the schedule (or `npm start`) invokes the platform function
 * with it, and the function brings the baselines of its cached sources up to date (docs/cache.md). It carries
 * only ids: which sources to sync, or none for every cached source of the directory (which also purges the
 * baselines of sources no longer cached). Everything else is read by the worker from the directory.
 */

/** `kind` of a sync event; also what the entry matches on. */
export const CACHE_SYNC_EVENT_KIND = 'bos.cache.sync';

/** The sync event as sent. */
export interface CacheSyncEvent {
  kind: typeof CACHE_SYNC_EVENT_KIND;
  /** Only these sources (and no purge). @default every cached source */
  source_ids?: string[];
}

/** What the worker is asked to do. */
export interface CacheSyncRequest {
  readonly sourceIds?: readonly string[];
}

// The directory's source id rule (`lambda/bos/directory/document.ts`).
const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;
/** More ids than any directory lists would be a malformed event. */
const MAX_IDS = 1000;

/** The event that asks for a sync of `sourceIds` (every cached source when absent). */
export function cacheSyncEvent(sourceIds?: readonly string[]): CacheSyncEvent {
  return { kind: CACHE_SYNC_EVENT_KIND, ...(sourceIds === undefined ? {} : { source_ids: [...sourceIds] }) };
}

/**
 * The request a sync event carries, or undefined when `event` is not exactly one (another key, or ids that
 * are not source ids).
 */
export function cacheSyncRequest(event: unknown): CacheSyncRequest | undefined {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return undefined;
  const { kind, source_ids: ids, ...rest } = event as Record<string, unknown>;
  if (kind !== CACHE_SYNC_EVENT_KIND || Object.keys(rest).length > 0) return undefined;
  if (ids === undefined) return {};
  const valid =
    Array.isArray(ids) &&
    ids.length <= MAX_IDS &&
    ids.every((id): id is string => typeof id === 'string' && SOURCE_ID.test(id));
  return valid ? { sourceIds: ids } : undefined;
}
