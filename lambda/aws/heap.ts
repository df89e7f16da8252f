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
 * collector's threads off that way crashed V8, so nothing else is set). The price is resident memory: the heap
 * holds more garbage between collections (measured in docs/federation.md, "Fifth pass").
 */
import { setFlagsFromString } from 'node:v8';

/** The default of `BOS_HEAP_GROWING_PERCENT`. */
export const DEFAULT_HEAP_GROWING_PERCENT = 200;

/**
 * Sets V8's old-generation growing factor to 1 + `percent`/100 for this process; 0 leaves V8's own. Call it
 * once, in the function's process (never in a process that merely imports the handler, such as a test).
 * @returns the V8 flag it set, or undefined
 */
export function applyHeapGrowing(percent: number): string | undefined {
  if (!Number.isSafeInteger(percent) || percent <= 0) return undefined;
  const flag = `--heap-growing-percent=${percent}`;
  setFlagsFromString(flag);
  return flag;
}
