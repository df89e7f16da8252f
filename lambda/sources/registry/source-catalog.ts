/**
 * Source adapters built from definitions that live in a store (the directory table), kept per execution
 * environment and re-read after a short TTL. Grants are not this module's business: the directory re-checks
 * them on every call; this only decides which adapter answers a source id.
 */
import type { SourceAdapter } from '../../federation/index.js';
import { unavailableSource } from './build.js';
import type { SourceSpec } from './types.js';

/** A stored definition that could not even be read (a malformed item); its source is unavailable. */
export interface UnreadableSource {
  readonly source_id: string;
  readonly error: Error;
}

/** Options of {@link createSourceCatalog}. */
export interface SourceCatalogOptions {
  /** Reads the current definitions (throws when the store cannot answer at all). */
  load(): Promise<ReadonlyArray<SourceSpec | UnreadableSource>>;
  /** Builds one adapter; a throw makes that source answer `source_unavailable` (see `onInvalid`). */
  build(spec: SourceSpec): SourceAdapter;
  /** Told about each definition that is unreadable or `build` refused, once per change of it. */
  onInvalid?(sourceId: string, error: unknown): void;
  /** Told when `load` fails; the adapters of the last good load stay in service. */
  onLoadError?(error: unknown): void;
  /**
   * How long loaded definitions are used before the next `refresh` reads them again.
   * @default 30000
   */
  ttlMs?: number;
  /**
   * Age after which a `refresh` that finds the definitions still fresh starts a reload in the background
   * instead of leaving it to the first call past the TTL, so steady traffic never waits for the store: the
   * call goes on with the current adapters, and the reload swaps in its adapters when it lands. Set it to
   * `ttlMs` to reload only on a call that finds the definitions expired.
   * @default ttlMs / 2
   */
  refreshAfterMs?: number;
  /**
   * After a failed load, how long the previous adapters are kept before trying again (a store outage
   * must not add a read to every call). Until a first load succeeds, every `refresh` tries.
   * @default 1000
   */
  retryMs?: number;
  /** @default Date.now */
  clock?: () => number;
}

/** The live source map and the call that keeps it current. */
export interface SourceCatalog {
  /** Source id → adapter; the same Map object throughout, its entries replaced by each load. */
  readonly sources: ReadonlyMap<string, SourceAdapter>;
  /**
   * Reloads the definitions when they are older than the TTL; otherwise resolves at once, after starting
   * a background reload when they are older than `refreshAfterMs`. Concurrent callers share one load.
   * Never rejects: a failed load is reported to `onLoadError`.
   */
  refresh(): Promise<void>;
}

/** Creates an empty catalog; the first `refresh` loads it. */
export function createSourceCatalog(options: SourceCatalogOptions): SourceCatalog {
  const ttl = options.ttlMs ?? 30_000;
  const refreshAfter = options.refreshAfterMs ?? ttl / 2;
  const retry = options.retryMs ?? 1_000;
  const clock = options.clock ?? Date.now;
  const sources = new Map<string, SourceAdapter>();
  // Per source id: the definition's fingerprint and its adapter, so an unchanged definition keeps its
  // adapter (and whatever that adapter caches) across loads.
  const built = new Map<string, { fingerprint: string; adapter: SourceAdapter }>();
  let loaded = false;
  let nextLoadAt = 0;
  /** When a still-fresh catalog is next reloaded in the background. */
  let refreshAt = 0;
  /** When the load whose adapters are in service started (a late, older load must not replace them). */
  let servedFrom = -Infinity;
  let inFlight:
    { readonly done: Promise<void>; readonly startedAt: number; readonly background: boolean } | undefined;

  const adapterFor = (entry: SourceSpec | UnreadableSource): SourceAdapter => {
    const fingerprint = fingerprintOf(entry);
    const previous = built.get(entry.source_id);
    if (previous?.fingerprint === fingerprint) return previous.adapter;
    let adapter: SourceAdapter;
    try {
      if ('error' in entry) throw entry.error;
      adapter = options.build(entry);
    } catch (error) {
      options.onInvalid?.(entry.source_id, error);
      adapter = unavailableSource(
        'error' in entry ? { source_id: entry.source_id, adapter: 'unknown', options: {} } : entry,
      );
    }
    built.set(entry.source_id, { fingerprint, adapter });
    return adapter;
  };

  // Freshness counts from the moment a load started: definitions read by it are at least that new.
  const load = async (startedAt: number): Promise<void> => {
    try {
      const specs = await options.load();
      if (startedAt <= servedFrom) return;
      const next = new Map(specs.map((spec) => [spec.source_id, adapterFor(spec)]));
      // Swapped in one synchronous step, so a call never sees half of a load.
      sources.clear();
      for (const [id, adapter] of next) sources.set(id, adapter);
      for (const id of built.keys()) if (!next.has(id)) built.delete(id);
      loaded = true;
      servedFrom = startedAt;
      nextLoadAt = startedAt + ttl;
      refreshAt = startedAt + refreshAfter;
    } catch (error) {
      options.onLoadError?.(error);
      const now = clock();
      // The adapters in service stay until their own TTL; past it, the next try waits retryMs.
      refreshAt = now + retry;
      if (loaded && nextLoadAt <= now) nextLoadAt = now + retry;
    }
  };

  const start = (background: boolean): Promise<void> => {
    // A background reload waits one turn of the event loop (`setImmediate`), so the call that asked goes
    // on first: the reads it has already started (its grant, beside which `refresh` is called) go out
    // before this load's request work.
    const ready = background ? new Promise<void>((resolve) => setImmediate(resolve)) : Promise.resolve();
    const startedAt = clock();
    const entry = {
      startedAt,
      background,
      done: ready
        .then(() => load(startedAt))
        .finally(() => {
          if (inFlight === entry) inFlight = undefined;
        }),
    };
    inFlight = entry;
    return entry.done;
  };

  return {
    sources,
    refresh() {
      const now = clock();
      if (loaded && now < nextLoadAt) {
        if (now >= refreshAt && inFlight === undefined) void start(true);
        return Promise.resolve();
      }
      // A background reload still in flight long after it started may have been frozen with its
      // execution environment between invocations (Lambda suspends work left after a response): a call
      // that needs the definitions now does not wait on it, and starts its own load instead.
      if (inFlight !== undefined && !(inFlight.background && now - inFlight.startedAt >= retry))
        return inFlight.done;
      return start(false);
    },
  };
}

/** Everything that decides the adapter: kind, options (key order ignored) and the credential's name. */
function fingerprintOf(entry: SourceSpec | UnreadableSource): string {
  if ('error' in entry) return stableJson(['unreadable', entry.error.message]);
  return stableJson([entry.adapter, entry.options, entry.credential?.name ?? null]);
}

/** JSON with object keys sorted: DynamoDB does not promise the order of a map's keys. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
