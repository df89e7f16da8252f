/**
 * One source's sync: a full read into the baseline (then a sweep of what it did not see), or a delta from the
 * watermark. At most one sync per source runs at a time (the store's conditional lease). A full read larger
 * than one invocation stops before the invocation's deadline, saves a checkpoint in the sync-state item, and
 * the next scheduled run continues it; the baseline it replaces stays readable meanwhile.
 *
 * When a full read is due: no baseline yet, a full read under way, an expired watermark (a Graph delta link),
 * or, for a feed without tombstones (or one that still `sweeps`), a last full read older than `fullEveryMs`
 * (the sweep is how such a source's deletions reach the baseline).
 *
 * Nothing here logs a watermark or a checkpoint: either may be a provider's link holding a token.
 */
import { WatermarkExpiredError } from './port.js';
import type { BaselineState, BaselineStore, ChangeBatch, ChangeFeed } from './port.js';

/** What one sync did, for the log and the metrics (no watermark, no provider text). */
export interface SyncOutcome {
  readonly sourceId: string;
  /**
   * `busy`: another worker holds the lease; `fresh`: synced within its refresh, left alone; `paused`: a full
   * read stopped at the deadline, to be continued.
   */
  readonly result: 'full' | 'delta' | 'fresh' | 'paused' | 'busy' | 'failed';
  /** Records written (upserts) by this run. */
  readonly written: number;
  /** Records removed (deletes and the sweep). */
  readonly removed: number;
  readonly durationMs: number;
  /** Milliseconds since the baseline was last brought up to date, after this run; absent without a baseline. */
  readonly baselineAgeMs?: number;
  /** The failure's class name (never its message: a provider's text stays out of logs). */
  readonly errorName?: string;
  /** The failure's code, when it has one (`source_unavailable`, `rate_limited`, …). */
  readonly errorCode?: string;
}

/** What {@link syncSource} needs. */
export interface SyncSourceOptions {
  readonly sourceId: string;
  readonly store: BaselineStore;
  readonly feed: ChangeFeed;
  /** Who holds the lease (the invocation's request id). */
  readonly owner: string;
  /** Epoch ms by which this run must have saved its state (the invocation's deadline less a reserve). */
  readonly stopAt: number;
  /** A feed without tombstones gets a full read (and sweep) at least this often. */
  readonly fullEveryMs: number;
  /**
   * A ready baseline brought up to date less than this long ago is left alone (`fresh`): the schedule fires
   * at the smallest refresh of the directory, each source syncs at its own. @default 0 (always sync)
   */
  readonly refreshMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
  /** Fresh sync ids (tests fix them). @default crypto.randomUUID */
  readonly newSyncId?: () => string;
}

interface FullProgress {
  readonly syncId: string;
  readonly feed?: string;
  readonly written: number;
}

/** How long a lease outlives this run's deadline, so a worker that dies frees the source soon after. */
const LEASE_MARGIN_MS = 60_000;

/** Runs one sync of one source; never throws for a provider's or the feed's failure (the outcome says it). */
export async function syncSource(options: SyncSourceOptions): Promise<SyncOutcome> {
  const now = options.now ?? Date.now;
  const started = now();
  const { sourceId, store } = options;
  const lease = await store.acquireLease(sourceId, options.owner, options.stopAt - started + LEASE_MARGIN_MS);
  if (lease === undefined) return { sourceId, result: 'busy', written: 0, removed: 0, durationMs: 0 };
  const done = (result: SyncOutcome['result'], counts: Counts, state?: BaselineState, error?: unknown) => ({
    sourceId,
    result,
    ...counts,
    durationMs: now() - started,
    ...ageOf(state, now()),
    ...errorFields(error),
  });
  try {
    const state = (await store.readState(sourceId)) ?? { sourceId, status: 'empty', recordCount: 0 };
    const progress = parseProgress(state.checkpoint);
    const age = ageOf(state, started).baselineAgeMs;
    if (progress === undefined && age !== undefined && age < (options.refreshMs ?? 0))
      return done('fresh', { written: 0, removed: 0 }, state);
    const lastFull = state.lastFullSyncAt === undefined ? Number.NaN : Date.parse(state.lastFullSyncAt);
    const fullDue =
      state.watermark === undefined ||
      progress !== undefined ||
      ((options.feed.sweeps ?? !options.feed.tombstones) && !(started - lastFull < options.fullEveryMs));
    if (!fullDue) {
      try {
        return await delta(options, state, now, done);
      } catch (error) {
        if (!(error instanceof WatermarkExpiredError)) throw error;
      }
    }
    return await full(options, state, progress, now, done);
  } catch (error) {
    return done(
      'failed',
      { written: 0, removed: 0 },
      await store.readState(sourceId).catch(() => undefined),
      error,
    );
  } finally {
    await store.releaseLease(lease);
  }
}

interface Counts {
  written: number;
  removed: number;
}
type Done = (
  result: SyncOutcome['result'],
  counts: Counts,
  state?: BaselineState,
  error?: unknown,
) => SyncOutcome;

async function delta(options: SyncSourceOptions, state: BaselineState, now: () => number, done: Done) {
  const { store, sourceId } = options;
  const counts = { written: 0, removed: 0 };
  let watermark: string | undefined;
  for await (const batch of feedBatches(options.feed, state.watermark, options.stopAt)) {
    await apply(store, sourceId, batch.upserts, batch.deletes, undefined, counts);
    watermark = batch.watermark ?? watermark;
  }
  const next: BaselineState = {
    ...state,
    ...(watermark === undefined ? {} : { watermark }),
    lastDeltaSyncAt: new Date(now()).toISOString(),
  };
  await store.writeState(next);
  return done('delta', counts, next);
}

async function full(
  options: SyncSourceOptions,
  state: BaselineState,
  progress: FullProgress | undefined,
  now: () => number,
  done: Done,
): Promise<SyncOutcome> {
  const { store, sourceId } = options;
  const syncId = progress?.syncId ?? (options.newSyncId ?? (() => crypto.randomUUID()))();
  const counts = { written: 0, removed: 0 };
  let saved: FullProgress = progress ?? { syncId, written: 0 };
  // A baseline already readable stays so (with its old watermark) until this read replaces it.
  const base: BaselineState = { ...state, status: state.status === 'ready' ? 'ready' : 'syncing' };
  await store.writeState({ ...base, checkpoint: JSON.stringify(saved) });
  let watermark: string | undefined;
  try {
    for await (const batch of feedBatches(options.feed, undefined, options.stopAt, saved.feed)) {
      await apply(store, sourceId, batch.upserts, batch.deletes, syncId, counts);
      watermark = batch.watermark ?? watermark;
      if (batch.checkpoint !== undefined)
        saved = { syncId, feed: batch.checkpoint, written: (progress?.written ?? 0) + counts.written };
    }
  } catch (error) {
    // Stopped by the deadline, or a provider failure: what is stored stays, and the next run continues.
    // A checkpoint the provider no longer honours is dropped: the next run starts the full read afresh.
    const { checkpoint: _dropped, ...restart } = base;
    const paused: BaselineState =
      error instanceof WatermarkExpiredError ? restart : { ...base, checkpoint: JSON.stringify(saved) };
    await store.writeState(paused);
    const atDeadline = now() >= options.stopAt;
    if (error instanceof WatermarkExpiredError || !atDeadline) return done('failed', counts, paused, error);
    return done('paused', counts, paused);
  }
  counts.removed += await store.sweep(sourceId, syncId);
  const at = new Date(now()).toISOString();
  const next: BaselineState = {
    sourceId,
    status: 'ready',
    ...(watermark === undefined ? {} : { watermark }),
    lastFullSyncAt: at,
    lastDeltaSyncAt: at,
    recordCount: (progress?.written ?? 0) + counts.written,
  };
  await store.writeState(next);
  return done('full', counts, next);
}

async function apply(
  store: BaselineStore,
  sourceId: string,
  upserts: readonly Parameters<BaselineStore['put']>[1][number][],
  deletes: readonly string[],
  syncId: string | undefined,
  counts: Counts,
): Promise<void> {
  if (upserts.length > 0) await store.put(sourceId, upserts, syncId);
  if (deletes.length > 0) await store.remove(sourceId, deletes);
  counts.written += upserts.length;
  counts.removed += deletes.length;
}

/**
 * Reads `feed` with the run's stop time as its deadline and a signal that fires then. The timer is a plain
 * (referenced) one: `AbortSignal.timeout`'s would let the process exit while a read waits on it.
 */
async function* feedBatches(
  feed: ChangeFeed,
  watermark: string | undefined,
  stopAt: number,
  resumeFrom?: string,
): AsyncGenerator<ChangeBatch> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error('the sync run reached its deadline')),
    Math.max(0, stopAt - Date.now()),
  );
  try {
    yield* feed.changes(watermark, { signal: controller.signal, deadline: stopAt }, resumeFrom);
  } finally {
    clearTimeout(timer);
  }
}

function parseProgress(text: string | undefined): FullProgress | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<FullProgress>;
    if (typeof value.syncId !== 'string') return undefined;
    return {
      syncId: value.syncId,
      written: Number.isSafeInteger(value.written) ? value.written! : 0,
      ...(typeof value.feed === 'string' ? { feed: value.feed } : {}),
    };
  } catch {
    return undefined;
  }
}

function ageOf(state: BaselineState | undefined, now: number): { baselineAgeMs?: number } {
  if (state?.status !== 'ready') return {};
  const times = [state.lastFullSyncAt, state.lastDeltaSyncAt].map((t) =>
    t === undefined ? Number.NaN : Date.parse(t),
  );
  const latest = Math.max(...times.filter((t) => !Number.isNaN(t)));
  return Number.isFinite(latest) ? { baselineAgeMs: Math.max(0, now - latest) } : {};
}

function errorFields(error: unknown): { errorName?: string; errorCode?: string } {
  if (error === undefined) return {};
  if (!(error instanceof Error)) return { errorName: typeof error };
  const code = (error as { code?: unknown }).code;
  return { errorName: error.name, ...(typeof code === 'string' ? { errorCode: code } : {}) };
}
