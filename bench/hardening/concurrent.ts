/**
 * Concurrency through the whole local stack (`npm start`'s: REST v1 front, the bundled platform under the
 * runtime client, DynamoDB Local): 50 concurrent streamed federated reads (stateless `bos_execute` under the
 * `bos/source-results/v1` opt-in, read to their end) while 200 quick calls (`tools/list`) are made, a few at a
 * time. Reports p50/p99 of the quick calls, throttled answers, and whether every stream got its final frame
 * (a JSON-RPC response with the call's id). Also the event-loop delay of this process, which serves the REST
 * front, the Runtime API and the local issuer's JWKS: it says whether the stack itself kept up. Prints a table
 * and one JSON line; asserts nothing.
 * Knobs: `BENCH_STREAMS` (50), `BENCH_QUICK` (200), `BENCH_QUICK_PARALLEL` (4), `BENCH_CONCURRENCY`
 * (streams + 10: the function's concurrency, each in-flight request has its own environment, as on Lambda, whose
 * default account concurrency of 1,000 would not throttle this load), `BENCH_PARALLEL_INITS` (the stack's
 * `maxParallelInits`; default the machine's available parallelism).
 */
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { startStack } from '../../local/stack.js';

const streams = Number(process.env['BENCH_STREAMS'] ?? 50);
const quick = Number(process.env['BENCH_QUICK'] ?? 200);
const quickParallel = Number(process.env['BENCH_QUICK_PARALLEL'] ?? 4);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? streams + 10);
const parallelInits = process.env['BENCH_PARALLEL_INITS'];

const meta = (capabilities: object) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

function headers(token: string, method: string, name?: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${token}`,
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(name !== undefined && { 'Mcp-Name': name }),
  };
}

interface StreamOutcome {
  status: number;
  /** The answer's start when it was not a stream (an error answer), to say why. */
  refusal?: string;
  finalFrame: boolean;
  frames: number;
  ms: number;
}

/** One streamed read, read to its end; true when its last SSE frame is the call's JSON-RPC response. */
async function streamedRead(url: string, token: string, id: number): Promise<StreamOutcome> {
  const startedAt = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: headers(token, 'tools/call', 'bos_execute'),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'bos_execute',
        arguments: { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} },
        _meta: meta({ experimental: { 'bos/source-results/v1': {} } }),
      },
    }),
  });
  const text = await response.text();
  const frames = text
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6),
    )
    .filter((data): data is string => data !== undefined && data !== '');
  let finalFrame = false;
  try {
    const last = JSON.parse(frames.at(-1) ?? '{}') as { id?: unknown; result?: unknown; error?: unknown };
    finalFrame = last.id === id && (last.result !== undefined || last.error !== undefined);
  } catch {
    finalFrame = false;
  }
  return {
    status: response.status,
    ...(response.status !== 200 && {
      refusal: `${response.headers.get('www-authenticate') ?? ''} ${text.slice(0, 160)}`,
    }),
    finalFrame,
    frames: frames.length,
    ms: performance.now() - startedAt,
  };
}

/** One quick call; its latency and status. */
async function quickCall(url: string, token: string, id: number): Promise<{ status: number; ms: number }> {
  const startedAt = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: headers(token, 'tools/list'),
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta({}) } }),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - startedAt };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Outage answers the function logged, by store (a 503 names the store that could not answer in time). */
const outages = new Map<string, number>();
/** Cold starts whose JWKS prefetch failed (their first request then fetched the keys itself). */
let failedPrefetches = 0;
const stack = await startStack({
  bundleDir: '.local/bench/hardening',
  poolSize: 4,
  concurrency,
  ...(parallelInits !== undefined && { maxParallelInits: Number(parallelInits) }),
  onFunctionLog: ({ line }) => {
    const store = /"(?:msg|message)":"store unavailable".*?"store":"([^"]+)"/.exec(line)?.[1];
    if (line.includes('cold-start JWKS prefetch failed')) failedPrefetches += 1;
    if (store !== undefined) outages.set(store, (outages.get(store) ?? 0) + 1);
  },
});
try {
  const url = stack.url;
  const token = stack.devTokens?.['dev-user'] ?? '';
  // Warm: one of each, so the figures are not the first cold starts of the warm environments.
  await streamedRead(url, token, 0);
  await quickCall(url, token, 0);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const startedAt = performance.now();
  const streaming = Promise.all(Array.from({ length: streams }, (_, i) => streamedRead(url, token, i + 1)));
  const quickResults: { status: number; ms: number }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: quickParallel }, async () => {
      while (next < quick) {
        const id = 1000 + next++;
        quickResults.push(await quickCall(url, token, id));
      }
    }),
  );
  const streamResults = await streaming;
  const wallMs = performance.now() - startedAt;
  loopDelay.disable();
  const ok = quickResults.filter((r) => r.status === 200).map((r) => r.ms);
  const summary = {
    streams,
    streamsAnswered200: streamResults.filter((r) => r.status === 200).length,
    streamsWithFinalFrame: streamResults.filter((r) => r.status === 200 && r.finalFrame).length,
    streamStatuses: [...new Set(streamResults.map((r) => r.status))],
    streamP50Ms: Math.round(
      percentile(
        streamResults.map((r) => r.ms),
        50,
      ),
    ),
    quickCalls: quick,
    quickOk: ok.length,
    quickThrottled: quickResults.filter((r) => r.status === 500).length,
    quickP50Ms: Number(percentile(ok, 50).toFixed(1)),
    quickP99Ms: Number(percentile(ok, 99).toFixed(1)),
    environments: stack.pool.environmentCount,
    coldStarts: stack.pool.spawnCount,
    concurrency,
    parallelInits: parallelInits === undefined ? availableParallelism() : Number(parallelInits),
    loadAverage1m: Number(loadavg()[0]?.toFixed(2)),
    outages: Object.fromEntries(outages),
    failedPrefetches,
    stackLoopDelayP99Ms: Math.round(loopDelay.percentile(99) / 1e6),
    stackLoopDelayMaxMs: Math.round(loopDelay.max / 1e6),
    refusals: [...new Set(streamResults.flatMap((r) => (r.refusal === undefined ? [] : [r.refusal])))],
    wallMs: Math.round(wallMs),
  };
  const rows: [string, string][] = [
    ['streamed reads answered 200', `${summary.streamsAnswered200} / ${streams}`],
    ['... of which ended with their final frame', String(summary.streamsWithFinalFrame)],
    ['stream statuses', summary.streamStatuses.join(', ')],
    ['stream duration p50 (ms)', String(summary.streamP50Ms)],
    ['quick calls answered 200', `${summary.quickOk} / ${quick}`],
    ['quick calls throttled (500)', String(summary.quickThrottled)],
    ['quick call p50 (ms)', String(summary.quickP50Ms)],
    ['quick call p99 (ms)', String(summary.quickP99Ms)],
    ['execution environments / runtime starts', `${summary.environments} / ${summary.coldStarts}`],
    ['outage answers (503) by store', JSON.stringify(summary.outages)],
    ['cold starts whose JWKS prefetch failed', String(summary.failedPrefetches)],
    [
      'stack event-loop delay p99 / max (ms)',
      `${summary.stackLoopDelayP99Ms} / ${summary.stackLoopDelayMaxMs}`,
    ],
    ['wall time (ms)', String(summary.wallMs)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  process.stdout.write(`${rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n')}\n`);
  process.stdout.write(`${JSON.stringify({ bench: 'hardening-concurrent', ...summary })}\n`);
} finally {
  await stack.close();
}
