/**
 * The read path of a cached source: a {@link SourceAdapter} whose layered read answers from the source's
 * baseline first and then applies the provider's changes since the baseline's watermark (docs/bos.md
 * "Reading a cached source"). Its plain `read` is the live adapter's, unchanged.
 *
 * - A baseline is used only when its state is `ready`, it has a watermark, and its last sync is within the
 *   policy's `max_staleness`; otherwise (or when the store cannot be read) the read is live, as without a cache.
 * - Baseline and delta records are selected with the kind's own matcher where its provider matches by its
 *   own rules (Graph's and Okta's prefix search, LDAP's attributes: `feeds.ts`), else with the kernel's matching,
 *   so a cached answer selects the people a live read of the same source selects.
 * - The delta is gathered whole, then handed to the engine as one step: a failed or late delta leaves the
 *   baseline standing (the engine ends the source with its error) instead of half a delta.
 */
import { isSourceError, normaliseEmail, normalisePhone, singleKeyRecordRef } from '../../federation/index.js';
import type {
  KeyedReader,
  LayeredPage,
  PersonKeys,
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceErrorCode,
  SourceQuery,
} from '../../federation/index.js';
import { localMatcher, recordSearchText } from '../kernel/local-match.js';
import type { KindMatch } from './feeds.js';
import type { BaselineLookup, BaselineState, BaselineStore, ChangeFeed, SourceCachePolicy } from './port.js';

/** Options of {@link createCachedSource}. */
export interface CachedSourceOptions {
  /** The source's live adapter: the fallback, and the plain `read`. */
  readonly live: SourceAdapter;
  /** The id the store keys the source's baseline by (the directory's source id). */
  readonly sourceId: string;
  readonly store: BaselineStore;
  readonly feed: ChangeFeed;
  readonly policy: SourceCachePolicy;
  /**
   * The source kind's own selector of mapped records (`kindMatchFor`), where its live read does not match as
   * the kernel does.
   * @default the kernel's matcher
   */
  readonly match?: KindMatch;
  /**
   * Records per baseline page read from the store after the first. Large, so a read over a large baseline
   * takes few store round trips (DynamoDB answers at most 1 MB per page); the engine still streams them to
   * the client in pages of its own size.
   * @default 1000
   */
  readonly pageSize?: number;
  /**
   * Records in the first baseline page: smaller than the rest, so the first page reaches the client sooner.
   * @default 25
   */
  readonly firstPageSize?: number;
  /** @default Date.now */
  readonly clock?: () => number;
  /** Told when the store could not be read and the read went live (an operator's signal, never a failure). */
  readonly onStoreError?: (error: unknown) => void;
}

/** One delta step: the changed records that match, and every changed or deleted id. */
type DeltaStep = Extract<LayeredPage, { layer: 'delta' }>;

const FIRST_PAGE_SIZE = 25;
const PAGE_SIZE = 1000;

/** When a usable baseline was current, or undefined when the read must go live. */
export function usableBaselineAt(
  state: BaselineState | undefined,
  policy: SourceCachePolicy,
  now: number,
): number | undefined {
  if (state?.status !== 'ready' || state.watermark === undefined) return undefined;
  const synced = [state.lastFullSyncAt, state.lastDeltaSyncAt]
    .map((at) => (at === undefined ? Number.NaN : Date.parse(at)))
    .filter((at) => !Number.isNaN(at));
  if (synced.length === 0) return undefined;
  const at = Math.max(...synced);
  return now - at <= policy.maxStalenessMs ? at : undefined;
}

/** The record selector of `query` over baseline and delta records (undefined: every record). */
const matcherOf = (query: SourceQuery, match: KindMatch | undefined) =>
  match?.(query) ?? localMatcher<RawRecord>(query, recordSearchText, (record) => record.observed_at);

/** A source answering from its baseline plus delta when it can, live otherwise. */
export function createCachedSource(options: CachedSourceOptions): SourceAdapter {
  const { live } = options;
  return {
    source: live.source,
    ...(live.timeoutMs === undefined ? {} : { timeoutMs: live.timeoutMs }),
    read: (query, readOptions) => live.read(query, readOptions),
    readLayers: (query, readOptions) => readLayers(options, query, readOptions),
    openKeyed: (readOptions) => openKeyed(options, readOptions),
  };
}

/** The baseline's state and when it was current, or undefined when the read must go live. */
async function usableState(
  options: CachedSourceOptions,
): Promise<{ state: BaselineState; at: number } | undefined> {
  let state: BaselineState | undefined;
  try {
    state = await options.store.readState(options.sourceId);
  } catch (error) {
    options.onStoreError?.(error);
  }
  const at = usableBaselineAt(state, options.policy, (options.clock ?? Date.now)());
  return state === undefined || at === undefined ? undefined : { state, at };
}

async function* readLayers(
  options: CachedSourceOptions,
  query: SourceQuery,
  readOptions: ReadOptions,
): AsyncGenerator<LayeredPage> {
  const { live } = options;
  // The first baseline page is asked for while the sync state is read: a usable baseline (the common case)
  // then costs one store round trip before its first page, and an unusable one wastes one small page.
  const pages = baselinePages(options, readOptions.signal);
  const first = pages.next();
  first.catch(() => undefined); // awaited below unless the read goes live
  const usable = await usableState(options);
  if (usable === undefined) {
    void pages.return(undefined).catch(() => undefined);
    for await (const records of live.read(query, readOptions)) yield { layer: 'live', records };
    return;
  }
  const { state } = usable;
  const as_of = new Date(usable.at).toISOString();
  const keep = matcherOf(query, options.match);
  const limit = query.operation === 'search_people' ? (query.limit ?? Infinity) : Infinity;
  let sent = 0;
  // The provider's changes are asked for once the first page is out, so the delta's round trips overlap the
  // rest of the baseline's instead of following them (awaited only after the baseline's last page).
  let delta: Promise<DeltaStep> | undefined;
  const changes = (): Promise<DeltaStep> => {
    if (delta === undefined) {
      delta = deltaSince(options.feed, state.watermark, keep, readOptions);
      delta.catch(() => undefined);
    }
    return delta;
  };
  try {
    for (let step = await first; step.done !== true; step = await pages.next()) {
      const records = (keep === undefined ? step.value : step.value.filter(keep)).slice(0, limit - sent);
      if (records.length === 0) continue;
      sent += records.length;
      yield { layer: 'baseline', as_of, records };
      void changes();
      if (sent >= limit) break;
    }
  } finally {
    // Ends the store's read when the loop stopped early (the limit, or the engine stopped reading).
    void pages.return(undefined).catch(() => undefined);
  }
  // The engine learns the baseline's instant even when none of its records matched.
  if (sent === 0) yield { layer: 'baseline', as_of, records: [] };
  yield await changes();
}

/** The baseline's pages; a store that fails, even as it is called, fails the first page. */
async function* baselinePages(
  options: CachedSourceOptions,
  signal: AbortSignal,
): AsyncGenerator<readonly RawRecord[]> {
  const { store, sourceId } = options;
  yield* store.readPages(
    sourceId,
    options.pageSize ?? PAGE_SIZE,
    signal,
    options.firstPageSize ?? FIRST_PAGE_SIZE,
  );
}

/**
 * A keyed reader over the baseline plus the provider's changes since it (gathered once for the whole
 * lookup): found baseline records the delta retracted are dropped, changed records holding an asked key
 * join. When the delta fails, the reader answers from the baseline alone and says why.
 */
async function openKeyed(
  options: CachedSourceOptions,
  readOptions: ReadOptions,
): Promise<KeyedReader | undefined> {
  const usable = await usableState(options);
  if (usable === undefined) return undefined;
  let delta: DeltaStep = { layer: 'delta', retracted: [], records: [] };
  let error: SourceErrorCode | undefined;
  try {
    delta = await deltaSince(options.feed, usable.state.watermark, undefined, readOptions);
  } catch (thrown) {
    error = isSourceError(thrown) ? thrown.code : 'source_unavailable';
  }
  const retracted = new Set(delta.retracted);
  const { store, sourceId } = options;
  return {
    as_of: new Date(usable.at).toISOString(),
    deltaApplied: error === undefined,
    ...(error === undefined ? {} : { error }),
    async find(keys) {
      const lookups: BaselineLookup[] = [
        ...keys.recordRefs.map((recordRef) => ({ recordRef })),
        ...keys.emails.map((email) => ({ email })),
        ...keys.phones.map((phone) => ({ phone })),
      ];
      const found = new Map<string, RawRecord>();
      for (const records of await Promise.all(lookups.map((lookup) => store.lookup(sourceId, lookup))))
        for (const record of records)
          if (!retracted.has(record.external_id)) found.set(record.external_id, record);
      for (const record of delta.records) if (holdsAny(record, keys)) found.set(record.external_id, record);
      return [...found.values()];
    },
  };
}

/** Whether `record` holds one of `keys` (its own ref, its normalised email or phone). */
function holdsAny(record: RawRecord, keys: PersonKeys): boolean {
  const email = normaliseEmail(record.email);
  const phone = normalisePhone(record.phone);
  return (
    keys.recordRefs.includes(singleKeyRecordRef(record)) ||
    (email !== null && keys.emails.includes(email)) ||
    (phone !== null && keys.phones.includes(phone))
  );
}

/**
 * The provider's changes since `watermark` as one delta step. Every changed or deleted id is retracted (its
 * baseline version no longer stands, whether or not the new one still matches); the changed records that
 * match join the result. Later batches win; within a batch a delete wins over an upsert of the same id.
 */
async function deltaSince(
  feed: ChangeFeed,
  watermark: string | undefined,
  keep: ((record: RawRecord) => boolean) | undefined,
  readOptions: ReadOptions,
): Promise<DeltaStep> {
  const retracted = new Set<string>();
  const changed = new Map<string, RawRecord>();
  for await (const batch of feed.changes(watermark, readOptions)) {
    for (const record of batch.upserts) {
      retracted.add(record.external_id);
      changed.set(record.external_id, record);
    }
    for (const id of batch.deletes) {
      retracted.add(id);
      changed.delete(id);
    }
  }
  const records = [...changed.values()];
  return {
    layer: 'delta',
    retracted: [...retracted],
    records: keep === undefined ? records : records.filter(keep),
  };
}
