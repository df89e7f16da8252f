/**
 * The smoke report as a plain-text table (check, result, detail), wide enough for each column's longest
 * cell, and as one JSON line for scripts.
 */
import type { CheckResult } from './checks.js';

/** Renders the results as an aligned table, one row per check, with a header and a summary line. */
export function formatTable(results: readonly CheckResult[]): string {
  const rows = [
    ['check', 'result', 'detail'],
    ...results.map((r) => [r.check, r.ok ? 'PASS' : 'FAIL', r.detail.replace(/\s+/g, ' ')]),
  ];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]): string =>
    `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`.trimEnd();
  const failed = results.filter((r) => !r.ok).length;
  const summary =
    failed === 0 ? `all ${results.length} checks passed` : `${failed} of ${results.length} checks failed`;
  return [
    line(rows[0]!),
    line(['-'.repeat(widths[0]!), '-'.repeat(widths[1]!), '------']),
    ...rows.slice(1).map(line),
    summary,
  ].join('\n');
}

/** `{"smoke": {passed, failed, checks: [...]}}` on one line. */
export function formatJson(results: readonly CheckResult[]): string {
  const failed = results.filter((r) => !r.ok).length;
  return JSON.stringify({ smoke: { passed: results.length - failed, failed, checks: results } });
}
