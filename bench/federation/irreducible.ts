/**
 * The irreducible-work floor of a call: the CPU of only `JSON.parse` of the providers' responses, plus
 * `JSON.stringify` of every SSE page event's message, plus one `JSON.stringify` of the final frame's message.
 * No platform can deliver the same bytes with less JSON work, so whole-call CPU ÷ this floor says how much the
 * platform adds (validation, merging, framing, the runtime, garbage collection). Measured in the same process
 * as the calls, on the same data.
 */
import { DEMO_SOURCE_OPTIONS, fixtureRecords, matchRecords } from '../../lambda/sources/index.js';
import type { CapturedEvents } from './sse-meter.js';
import type { SourceQuery } from '../../lambda/federation/index.js';

/**
 * The demo sources' provider responses to `query`, as JSON text: each fixture source's hits in its provider
 * pages (100 records unless it says otherwise), cut where a failing source stops answering.
 */
export function demoProviderResponses(query: SourceQuery): string[] {
  return DEMO_SOURCE_OPTIONS.flatMap((options) => {
    const hits = matchRecords(fixtureRecords(options), query);
    const size = options.providerPageSize ?? 100;
    let pages = Math.ceil(hits.length / size);
    if (options.failure !== undefined) pages = Math.min(pages, options.failure.afterPages ?? 0);
    return Array.from({ length: pages }, (_, page) =>
      JSON.stringify({ records: hits.slice(page * size, (page + 1) * size) }),
    );
  });
}

/** CPU ms of the floor and of its three parts (medians over the repeats). */
export interface Floor {
  totalMs: number;
  parseMs: number;
  pagesMs: number;
  finalMs: number;
}

/**
 * Measures the floor `repeats` times (user + system CPU of every thread, as the calls are measured) and
 * returns the medians.
 */
export function irreducibleCpu(
  providerResponses: readonly string[],
  events: CapturedEvents,
  repeats = 7,
): Floor {
  const pages = events.pages.map((data) => JSON.parse(data) as unknown);
  const final = events.final.map((data) => JSON.parse(data) as unknown);
  const runs: Floor[] = [];
  let sink = 0;
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  for (let i = 0; i < repeats; i++) {
    const parse = process.cpuUsage();
    for (const text of providerResponses) sink += (JSON.parse(text) as { records: unknown[] }).records.length;
    const parseMs = cpuMs(parse);
    const pagesStart = process.cpuUsage();
    for (const page of pages) sink += JSON.stringify(page).length;
    const pagesMs = cpuMs(pagesStart);
    const finalStart = process.cpuUsage();
    for (const message of final) sink += JSON.stringify(message).length;
    const finalMs = cpuMs(finalStart);
    runs.push({ totalMs: parseMs + pagesMs + finalMs, parseMs, pagesMs, finalMs });
  }
  // The sum is used so that no engine could drop the work as dead code.
  if (sink < 0) throw new Error('unreachable');
  return {
    totalMs: median(runs.map((r) => r.totalMs)),
    parseMs: median(runs.map((r) => r.parseMs)),
    pagesMs: median(runs.map((r) => r.pagesMs)),
    finalMs: median(runs.map((r) => r.finalMs)),
  };
}

/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
