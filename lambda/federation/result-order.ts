/**
 * The result order (DESIGN §4): by lower-cased `display_name` (records without one last), then `record_ref`.
 * Every page and the final result are put in this order, so the same records give the same bytes whatever
 * order they arrived in.
 */
import type { FederatedRecord } from './types.js';

/**
 * Code-unit order of two strings (`<` on strings), as a comparator. Not `localeCompare`: the order must not depend
 * on the locale or ICU data of the process.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The result order on (sort name, record_ref): names first, records without one last. */
function compareOrder(a: string | null, b: string | null, refA: string, refB: string): number {
  if (a !== b) {
    if (a === null) return 1;
    if (b === null) return -1;
    return a < b ? -1 : 1;
  }
  return compareText(refA, refB);
}

/** `records` in the result order (a new array); each name is lower-cased once, not once per comparison. */
export function sortResult(records: readonly FederatedRecord[]): FederatedRecord[] {
  const names = records.map((r) => (r.display_name === null ? null : r.display_name.toLowerCase()));
  const order = records.map((_, i) => i);
  order.sort((i, j) => compareOrder(names[i]!, names[j]!, records[i]!.record_ref, records[j]!.record_ref));
  return order.map((i) => records[i]!);
}
