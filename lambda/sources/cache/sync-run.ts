/**
 * One run of the sync worker: every cached source of the directory (or the ones the event names), one after
 * another, each within what is left of the invocation; then the baselines of sources no longer cached are
 * purged. A source whose turn does not come before the deadline is left to the next scheduled run.
 */
import type { SourceAdapter } from '../../federation/index.js';
import type { SourceSpec } from '../registry/types.js';
import { changeFeedFor } from './feeds.js';
import type { BaselineStore } from './port.js';
import { syncSource } from './sync.js';
import type { SyncOutcome } from './sync.js';

/** A feed without tombstones is read in full (and swept) at least this often. */
export const FULL_SYNC_EVERY_MS = 24 * 3_600_000;
/** A source is not started with less time than this left: its state write and lease release need some. */
const MIN_TURN_MS = 5_000;

/** What a run needs. */
export interface SyncRunOptions {
  /** Every source of the directory: its spec (cache policy and kind) and its adapter. */
  readonly sources: readonly { readonly spec: SourceSpec; readonly adapter: SourceAdapter }[];
  readonly store: BaselineStore;
  /**
   * Sources the directory names but whose definition could not be read or built: whether they are cached is
   * unknown, so their baselines are kept (a typo in a definition must not cost a full sync once it is fixed).
   * @default none
   */
  readonly unreadable?: readonly string[];
  /** The event's `source_ids`: sync only these (and purge nothing). @default every cached source */
  readonly only?: readonly string[];
  readonly owner: string;
  /** Epoch ms by which the run must be done (the invocation's deadline less a reserve). */
  readonly stopAt: number;
  /** Told of each source's outcome and each purge (the log line and the metrics). */
  readonly onOutcome?: (outcome: SyncOutcome) => void;
  readonly onPurge?: (sourceId: string) => void;
  /** @default Date.now */
  readonly now?: () => number;
}

/** What the run did. */
export interface SyncRunResult {
  readonly outcomes: readonly SyncOutcome[];
  /** Cached sources left for the next run (the deadline came first). */
  readonly deferred: readonly string[];
  readonly purged: readonly string[];
}

/** Runs the syncs of one invocation. Throws only when the store itself cannot answer. */
export async function runSyncs(options: SyncRunOptions): Promise<SyncRunResult> {
  const now = options.now ?? Date.now;
  const cached = options.sources.filter(({ spec }) => spec.cache !== undefined);
  const wanted =
    options.only === undefined ? cached : cached.filter(({ spec }) => options.only!.includes(spec.source_id));
  const outcomes: SyncOutcome[] = [];
  const deferred: string[] = [];
  for (const { spec, adapter } of wanted) {
    const feed = changeFeedFor(spec, adapter);
    if (feed === undefined) continue;
    if (options.stopAt - now() < MIN_TURN_MS) {
      deferred.push(spec.source_id);
      continue;
    }
    const outcome = await syncSource({
      sourceId: spec.source_id,
      store: options.store,
      feed,
      owner: options.owner,
      stopAt: options.stopAt,
      fullEveryMs: Math.max(FULL_SYNC_EVERY_MS, spec.cache?.refreshMs ?? 0),
      // An event that names the source asks for it now; the schedule's honours each source's refresh.
      ...(options.only === undefined ? { refreshMs: spec.cache?.refreshMs ?? 0 } : {}),
      now,
    });
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  const purged = options.only === undefined ? await purgeRemoved(options, cached) : [];
  return { outcomes, deferred, purged };
}

/**
 * Purges the baselines of sources the directory no longer caches (removed, or their cache turned off). A
 * directory with no sources at all is taken for one that could not be read, and purges nothing; nor is a
 * source the directory names with a definition that could not be read.
 */
async function purgeRemoved(
  options: SyncRunOptions,
  cached: readonly { readonly spec: SourceSpec }[],
): Promise<string[]> {
  if (options.sources.length === 0) return [];
  const keep = new Set([...cached.map(({ spec }) => spec.source_id), ...(options.unreadable ?? [])]);
  const purged: string[] = [];
  for (const sourceId of await options.store.sourceIds()) {
    if (keep.has(sourceId)) continue;
    await options.store.purge(sourceId);
    purged.push(sourceId);
    options.onPurge?.(sourceId);
  }
  return purged;
}
