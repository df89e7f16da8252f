/**
 * The report of `npm run bench:federation`: a table for people and one JSON line for tools.
 */
import type { Floor } from './irreducible.js';
import type { Makespan } from './makespan.js';

/** The medians of one scenario's measured calls, and its floor. */
export interface Scenario {
  name: string;
  calls: number;
  providerResponses: number;
  providerBytes: number;
  /** `metadata.result_count` of the final result. */
  resultCount: number;
  cpuMs: number;
  cpuMsRange: [number, number];
  wallMs: number;
  firstPageMs: number;
  peakRssMb: number;
  pageEvents: number;
  pageBytes: number;
  finalBytes: number;
  /** CPU ms of the irreducible JSON work and its parts (`irreducible.ts`). */
  floor: Floor;
}

/** How the run was made. */
export interface RunInfo {
  calls: number;
  warmup: number;
  /** 1-minute load average at the start and at the end: the machine may be shared. */
  loads: number[];
}

/** Whole-call CPU ÷ floor on (b) at or below this is the goal. */
export const RATIO_GOAL = 2;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** The human-readable table. */
export function reportTable(scenarios: readonly Scenario[], c: Makespan, run: RunInfo): string {
  const rows: string[][] = [['', ...scenarios.map((s) => s.name)]];
  const row = (label: string, pick: (s: Scenario) => string) => rows.push([label, ...scenarios.map(pick)]);
  row('provider responses', (s) => `${s.providerResponses} (${mb(s.providerBytes)})`);
  row('merged records (result_count)', (s) => String(s.resultCount));
  row('CPU per call', (s) => `${ms(s.cpuMs)} (${ms(s.cpuMsRange[0])}–${ms(s.cpuMsRange[1])})`);
  row('wall to final frame', (s) => ms(s.wallMs));
  row('first page', (s) => ms(s.firstPageMs));
  row('peak RSS', (s) => `${s.peakRssMb.toFixed(0)} MB`);
  row('SSE page events', (s) => `${s.pageEvents} (${mb(s.pageBytes)})`);
  row('final frame', (s) => mb(s.finalBytes));
  row('irreducible JSON CPU', (s) => ms(s.floor.totalMs));
  row('  parse / pages / final', (s) =>
    [s.floor.parseMs, s.floor.pagesMs, s.floor.finalMs].map((v) => v.toFixed(0)).join(' / '),
  );
  row('CPU ÷ irreducible', (s) => `${(s.cpuMs / s.floor.totalMs).toFixed(2)}×`);
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length)));
  const lines = rows.map((r) =>
    r.map((cell, col) => (col === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[col]!))).join('   '),
  );
  const large = scenarios[scenarios.length - 1];
  const ratio = large === undefined ? NaN : large.cpuMs / large.floor.totalMs;
  return [
    `federation benchmark (node ${process.version}; medians of ${run.calls} warm calls after ${run.warmup}; load average ${run.loads.map((l) => l.toFixed(1)).join(' → ')})`,
    ...lines,
    `goal: CPU ÷ irreducible ≤ ${RATIO_GOAL} on the large tenant: ${ratio <= RATIO_GOAL ? 'met' : 'NOT met'}`,
    `(c) makespan, ${c.sources} sources × ${c.latencyMs} ms, at most ${c.max} in flight: ${ms(c.makespanMs)} (ideal ${c.idealMs} ms), most in flight ${c.maxInFlight}`,
    '',
  ].join('\n');
}

/** The one JSON line. */
export function reportLine(scenarios: readonly Scenario[], c: Makespan, run: RunInfo): string {
  const fixed = (value: number, digits = 1) => Number(value.toFixed(digits));
  const figures = (s: Scenario) => ({
    result_count: s.resultCount,
    provider_responses: s.providerResponses,
    provider_bytes: s.providerBytes,
    cpu_ms: fixed(s.cpuMs),
    cpu_ms_min: fixed(s.cpuMsRange[0]),
    cpu_ms_max: fixed(s.cpuMsRange[1]),
    wall_ms: fixed(s.wallMs),
    first_page_ms: fixed(s.firstPageMs),
    peak_rss_mb: fixed(s.peakRssMb),
    sse_page_events: s.pageEvents,
    sse_page_bytes: s.pageBytes,
    final_frame_bytes: s.finalBytes,
    irreducible_cpu_ms: fixed(s.floor.totalMs),
    irreducible_parse_ms: fixed(s.floor.parseMs),
    irreducible_pages_ms: fixed(s.floor.pagesMs),
    irreducible_final_ms: fixed(s.floor.finalMs),
    irreducible_ratio: fixed(s.cpuMs / s.floor.totalMs, 2),
  });
  const [demo, large] = scenarios;
  return `${JSON.stringify({
    bench: 'federation',
    node: process.version,
    calls: run.calls,
    warmup: run.warmup,
    demo: demo === undefined ? null : figures(demo),
    large: large === undefined ? null : figures(large),
    ratio_goal: RATIO_GOAL,
    ratio_goal_met: large !== undefined && large.cpuMs / large.floor.totalMs <= RATIO_GOAL,
    makespan_ms: Math.round(c.makespanMs),
    ideal_ms: c.idealMs,
    max_in_flight: c.maxInFlight,
    load_average: run.loads.map((l) => fixed(l, 2)),
  })}\n`;
}
