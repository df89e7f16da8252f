/**
 * How the function's V8 heap grows (`BOS_HEAP_GROWING_PERCENT`, docs/deploy.md "Memory").
 *
 * After each full (mark-compact) collection V8 lets the old generation grow to a multiple of what survived it
 * before it starts the next one. For heaps capped below 1 GB, as Lambda caps a 1,024 MB function's
 * (`--max-old-space-size=922`), V8 picks a small multiple (at most ~1.9), so a federated read that keeps its
 * records for the whole invocation (~100–150 MB for 200,000 records) starts one or two full collections in
 * every invocation, each marking every live record on the helper threads. `--heap-growing-percent=200` sets
 * the multiple to 3: a warm environment then collects about once per such read instead of twice. V8 reads
 * this number whenever it recomputes its limit, so it can be set after the process started (switching the
 * collector's threads off that way crashed V8, so nothing else is set).
 *
 * The price is headroom: the heap holds more garbage between collections (docs/federation.md, "Fifth pass").
 * So the raised multiple only applies while it keeps the old generation's next limit within a budget
 * ({@link BUDGET_SHARE} of V8's heap size limit): after each full collection the percent is recomputed from
 * what is left, lowered as a large read's records approach the budget, and handed back to V8 once even V8's own
 * multiple would exceed it. The setting never lets the heap grow further than V8 alone would past the budget.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { PerformanceEntry } from 'node:perf_hooks';
import { GCProfiler, getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import type { GCProfilerResult } from 'node:v8';

/** The default of `BOS_HEAP_GROWING_PERCENT`. */
export const DEFAULT_HEAP_GROWING_PERCENT = 200;

/**
 * The share of V8's heap size limit (`heap_size_limit`: old generation plus young generation, 1,114 MB for a
 * 1,024 MB function) that a raised multiple may let the old generation's next limit reach: 613 MB there, which
 * leaves the young generation (2 × 51 MB), the final frame's buffer pool (128 MB) and the rest of the process
 * within the function's memory.
 */
export const BUDGET_SHARE = 0.55;

/** Below this percent the raised multiple would be no larger than V8's own (at most ~1.9 below a 1 GB cap). */
const V8_OWN_PERCENT = 90;

/**
 * The percent to use once a full collection left `liveBytes`: `percent` while `liveBytes` × (1 + percent/100)
 * fits `budgetBytes`, the largest percent that fits while that is still above V8's own multiple, else 0 (V8's
 * own factor).
 */
export function growingPercentFor(liveBytes: number, percent: number, budgetBytes: number): number {
  if (percent <= 0) return 0;
  if (liveBytes <= 0) return percent;
  const fits = Math.floor((budgetBytes / liveBytes - 1) * 100);
  if (fits >= percent) return percent;
  return fits >= V8_OWN_PERCENT ? fits : 0;
}

/** Heap spaces that are not the old generation: the young generation's may hold up to twice the semi-space. */
const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/** What the old generation holds now. */
function oldGenerationBytes(): number {
  let bytes = 0;
  for (const space of getHeapSpaceStatistics())
    if (!YOUNG_SPACES.has(space.space_name)) bytes += space.space_used_size;
  return bytes;
}

/**
 * What the old generation held just after the last full collection in `result` (a `GCProfiler` record, which
 * V8's collection callbacks write as each collection ends), or `undefined` if it holds none.
 */
export function oldBytesAfterLastFullCollection(result: GCProfilerResult | undefined): number | undefined {
  const statistics = result?.statistics ?? [];
  for (let i = statistics.length - 1; i >= 0; i--) {
    const collection = statistics[i]!;
    if (collection.gcType !== 'MarkSweepCompact') continue;
    let bytes = 0;
    for (const space of collection.afterGC.heapSpaceStatistics)
      if (!YOUNG_SPACES.has(space.spaceName)) bytes += space.spaceUsedSize;
    return bytes;
  }
  return undefined;
}

/** Restart the profiler after this many collections without a full one, so that its record stays small. */
const PROFILER_RESTART_AFTER = 64;

/**
 * What survived each full collection, as measured when it ended. A `gc` performance entry reaches its observer
 * only once the code running at the time yields, often after a long synchronous stretch (writing a final frame)
 * has promoted more into the old generation; read then, it looked two to three times larger than what survived
 * (docs/federation.md "Sixth pass"), and the budget lowered the percent for the rest of the process.
 * `GCProfiler` records each collection's statistics from V8's own callbacks, so its figure is the one at the
 * end of the collection. Where it is missing, the size when the observer runs is the fallback.
 */
class SurvivorMeter {
  readonly #profiler: GCProfiler | undefined;
  #collections = 0;

  constructor() {
    try {
      this.#profiler = new GCProfiler();
      this.#profiler.start();
    } catch {
      this.#profiler = undefined;
    }
  }

  /** Old-generation bytes after the full collection just reported (its observer runs now). */
  afterFullCollection(): number {
    return oldBytesAfterLastFullCollection(this.#restart()) ?? oldGenerationBytes();
  }

  /** Counts `count` collections that were not full ones, restarting the profiler now and then. */
  others(count: number): void {
    this.#collections += count;
    if (this.#collections >= PROFILER_RESTART_AFTER) this.#restart();
  }

  #restart(): GCProfilerResult | undefined {
    const profiler = this.#profiler;
    if (profiler === undefined) return undefined;
    this.#collections = 0;
    const result = profiler.stop();
    profiler.start();
    return result;
  }
}

/** Whether a `gc` performance entry is a full (mark-compact) collection. */
export function isFullCollection(entry: PerformanceEntry): boolean {
  return (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}

/** The heap growth this process applies. */
export interface HeapGrowth {
  /** The flag set at start, e.g. `--heap-growing-percent=200`. */
  readonly flag: string;
  /** The percent in force now (0 when V8's own factor is). */
  percent(): number;
}

/**
 * Sets V8's old-generation growing factor to 1 + `percent`/100 for this process and keeps it within the budget
 * after every full collection; 0 leaves V8's own. Call it once, in the function's process (never in a process
 * that merely imports the handler, such as a test).
 */
export function applyHeapGrowing(percent: number): HeapGrowth | undefined {
  if (!Number.isSafeInteger(percent) || percent <= 0) return undefined;
  const budget = getHeapStatistics().heap_size_limit * BUDGET_SHARE;
  let current = -1;
  const set = (next: number) => {
    if (next === current) return;
    setFlagsFromString(`--heap-growing-percent=${next}`);
    current = next;
  };
  set(percent);
  const survivors = new SurvivorMeter();
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    if (entries.some(isFullCollection))
      set(growingPercentFor(survivors.afterFullCollection(), percent, budget));
    else survivors.others(entries.length);
  }).observe({ entryTypes: ['gc'] });
  return { flag: `--heap-growing-percent=${percent}`, percent: () => current };
}
