/**
 * Federation engine benchmark (DESIGN §8: prints a table and one JSON line; never a timed test).
 * (a) 32 sources × 200 ms at maxConcurrentSources 8: makespan vs the ideal 4 × 200 ms, max reads in flight.
 * (b) 8 sources × 25,000 records through the whole invocation: the engine, every page written as an SSE
 *     `notifications/bos/source_result` frame by the production path (notifier → SseStream → body bytes,
 *     with its backpressure), the final merge, and the final frame (the production path too) read to its
 *     last byte: CPU µs per input record and peak RSS. The part before the final frame and the final frame
 *     are also reported on their own.
 * It re-runs itself under the heap flags Lambda's Node.js runtime sets for a 1,024 MB function
 * (`bench/lambda-heap.ts`); `BENCH_NODE_HEAP=default` keeps Node's defaults.
 */
import { loadavg } from 'node:os';

import { underLambdaHeap } from '../lambda-heap.js';

import { runFederation } from '../../lambda/federation/index.js';
import type { RawRecord, SourceAdapter } from '../../lambda/federation/index.js';
import { fixtureRecords } from '../../lambda/sources/index.js';
import type { FixtureSourceOptions } from '../../lambda/sources/index.js';
import { createSseSink } from './sse-sink.js';

const context = {
  context_handle: 'bench-context',
  organization_name: 'Bench Organization',
  application_name: 'Bench Application',
  installation_name: 'Bench Installation',
  role_label: 'Bench Role',
  is_default: true,
};

/** (a) Concurrency: each source sleeps 200 ms, then yields one record. */
async function concurrency() {
  const sources = 32;
  const latencyMs = 200;
  const max = 8;
  let inFlight = 0;
  let maxInFlight = 0;
  const adapters: SourceAdapter[] = Array.from({ length: sources }, (_, i) => {
    const source = { source_type: 'bench', source_identity: `s${i}` };
    return {
      source,
      async *read(_query, { signal }) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, latencyMs);
            signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
          });
          const record: RawRecord = {
            ...source,
            external_id: 'only',
            record_type: 'person',
            observed_at: '2026-10-08T12:00:00Z',
            capabilities: ['read'],
          };
          yield [record];
        } finally {
          inFlight--;
        }
      },
    };
  });
  const started = performance.now();
  const result = await runFederation({
    sources: adapters,
    query: { operation: 'list_people' },
    deadline: Date.now() + 30_000,
    maxConcurrentSources: max,
  });
  const makespanMs = performance.now() - started;
  const idealMs = Math.ceil(sources / max) * latencyMs;
  return {
    sources,
    latencyMs,
    max,
    makespanMs,
    idealMs,
    maxInFlight,
    complete: result.metadata.completeness,
  };
}

/** (b) Throughput: 8 × 25,000 pre-generated records (30 % of each source share an email with s0). */
async function throughput() {
  const sources = 8;
  const perSource = 25_000;
  const options: FixtureSourceOptions[] = Array.from({ length: sources }, (_, i) => ({
    source_type: i % 2 === 0 ? 'hr' : 'crm',
    source_identity: `bench-${i}`,
    recordCount: perSource,
    ...(i === 0
      ? {}
      : { overlaps: [{ with: 'bench-0', withRecordCount: perSource, by: 'email' as const, share: 0.3 }] }),
  }));
  // Generation is the fixture's cost, not the engine's: it happens before the measurement.
  const data = options.map((o) => fixtureRecords(o));
  const providerPage = 500;
  const adapters: SourceAdapter[] = options.map((o, i) => ({
    source: { source_type: o.source_type, source_identity: o.source_identity },
    async *read() {
      const all = data[i] ?? [];
      for (let at = 0; at < all.length; at += providerPage) {
        await Promise.resolve();
        yield all.slice(at, at + providerPage);
      }
    },
  }));
  const sink = createSseSink('bench-1', context);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await runFederation({
    sources: adapters,
    query: { operation: 'list_people' },
    deadline: Date.now() + 120_000,
    onEvent: sink.onEvent,
  });
  await sink.caughtUp();
  const pagesUsed = process.cpuUsage(cpu);
  const sseBytes = sink.bytes();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  // The final frame, built and written as the platform does, until the reader has its last byte.
  const finalCpu = process.cpuUsage();
  await sink.finish(result);
  const finalUsed = process.cpuUsage(finalCpu);
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - started;
  const records = sources * perSource;
  const micros = (usage: NodeJS.CpuUsage) => usage.user + usage.system;
  return {
    records,
    pages: sink.frames(),
    sseBytes,
    finalBytes: sink.bytes() - sseBytes,
    finalEncodeCpuMs: micros(finalUsed) / 1000,
    finalUsPerRecord: micros(finalUsed) / records,
    merged: result.records.length,
    cpuMs: micros(used) / 1000,
    wallMs,
    cpuUsPerRecord: micros(used) / records,
    pagesUsPerRecord: micros(pagesUsed) / records,
    peakRssMb,
    peakRssWithFinalMb: process.resourceUsage().maxRSS / 1024,
  };
}

/**
 * Machine speed reference: CPU ms for 200,000 string-keyed Map inserts, printed with the load average. Shared
 * machines run many jobs at once, so compare µs/record between runs against these figures.
 */
function calibrate(): number {
  const keys = Array.from({ length: 200_000 }, (_, i) => `hr\u0000bench-${i % 8}\u0000hr-${i}`);
  const before = process.cpuUsage();
  const map = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) map.set(keys[i]!, i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

// Garbage collection is a large share of this path, so measure it under the heap Lambda gives the function.
const heapFlags = underLambdaHeap();
const calibrationMs = calibrate();
const a = await concurrency();
const b = await throughput();
const rows: [string, string, string][] = [
  ['(a) makespan, 32 sources × 200 ms', `${a.makespanMs.toFixed(0)} ms`, `ideal ${a.idealMs} ms`],
  ['(a) max reads in flight', String(a.maxInFlight), `limit ${a.max}`],
  ['(b) records in / merged out', `${b.records} / ${b.merged}`, `${b.pages} SSE frames`],
  ['(b) CPU per record, whole invocation', `${b.cpuUsPerRecord.toFixed(2)} µs`, 'target ≤ 10 µs'],
  ['(b)   engine + SSE pages + merge', `${b.pagesUsPerRecord.toFixed(2)} µs`, ''],
  ['(b)   final frame', `${b.finalUsPerRecord.toFixed(2)} µs`, `${b.finalEncodeCpuMs.toFixed(0)} ms CPU`],
  ['(b) CPU total / wall', `${b.cpuMs.toFixed(0)} ms / ${b.wallMs.toFixed(0)} ms`, ''],
  [
    '(b) SSE bytes / final frame bytes',
    `${(b.sseBytes / 1e6).toFixed(1)} MB / ${(b.finalBytes / 1e6).toFixed(1)} MB`,
    '',
  ],
  ['(b) peak RSS (engine + pages)', `${b.peakRssMb.toFixed(0)} MB`, ''],
  ['(b) peak RSS incl. final frame', `${b.peakRssWithFinalMb.toFixed(0)} MB`, ''],
  [
    'calibration: 200k Map inserts',
    `${calibrationMs.toFixed(0)} ms CPU`,
    `load average ${loadavg()[0]?.toFixed(1)}`,
  ],
];
const width = Math.max(...rows.map((r) => r[0].length));
process.stdout.write(
  `federation engine benchmark (node ${process.version}, heap flags: ${heapFlags.join(' ') || 'Node defaults'})\n`,
);
for (const [name, value, note] of rows)
  process.stdout.write(`${name.padEnd(width)}  ${value.padStart(22)}  ${note}\n`);
process.stdout.write(
  `${JSON.stringify({
    bench: 'federation',
    makespan_ms: Math.round(a.makespanMs),
    ideal_ms: a.idealMs,
    max_in_flight: a.maxInFlight,
    records: b.records,
    merged: b.merged,
    cpu_us_per_record: Number(b.cpuUsPerRecord.toFixed(3)),
    pages_cpu_us_per_record: Number(b.pagesUsPerRecord.toFixed(3)),
    final_frame_cpu_us_per_record: Number(b.finalUsPerRecord.toFixed(3)),
    peak_rss_mb: Math.round(b.peakRssMb),
    peak_rss_with_final_mb: Math.round(b.peakRssWithFinalMb),
    final_encode_cpu_ms: Math.round(b.finalEncodeCpuMs),
    final_frame_bytes: b.finalBytes,
    calibration_map_ms: Math.round(calibrationMs),
    heap_flags: heapFlags.join(' '),
    load_average: Number(loadavg()[0]?.toFixed(2)),
    within_target: b.cpuUsPerRecord <= 10 && a.maxInFlight <= a.max,
  })}\n`,
);
