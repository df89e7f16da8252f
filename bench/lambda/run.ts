/**
 * `npm run bench:lambda`: the Lambda path measured on the local stack (real runtime client, real bundle).
 *
 * 1. Bundle size of `lambda/handlers/platform.ts` with the deploy-time esbuild options (minified, gzip).
 * 2. Cold start: a fresh runtime process until the first byte of an MCP `initialize` response reaches an HTTP
 *    client through the REST front (median of BENCH_COLD_RUNS).
 *    The same measure for the trivial streaming handler of section 3 (one frame) is printed beside it as
 *    the floor: what Node.js, the runtime client and the front cost before any of our code loads.
 * 3. Streaming overhead: BENCH_EVENTS SSE frames written by a streaming handler under the runtime client and
 *    relayed by the front, versus the same frames written by a plain `node:http` server, median of
 *    BENCH_ROUNDS alternating rounds. Writers and the reader each run in their own process; the stack
 *    process plays API Gateway + the Lambda service.
 *
 * Knobs: BENCH_COLD_RUNS (15), BENCH_EVENTS (20000), BENCH_ROUNDS (7), BENCH_WARMUP (3),
 * BENCH_DYNAMODB_WARMUP_MS (8000; 0 = the old way: three `initialize` calls only, see `measureColdStart`), and
 * BENCH_ONLY=streaming to run section 3 alone, BENCH_ONLY=cold to run sections 1 and 2 (with the floor) only
 * (default: all three sections).
 *
 * Targets: bundle ≤ 600 KB minified, code loaded at cold start ≤ 364 KB (what it was before the real adapters,
 * the LDAP client and Powertools arrived), cold start ≤ 250 ms median and ≤ 2× the one-frame floor measured in
 * the same run, streaming ≤ 2× plain Node.
 * Prints a table and one JSON line. Not a test: nothing here fails a build.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sessionsTable } from '../../lib/table-schemas.js';
import { bundleHandler } from '../../local/bundle.js';
import { PLATFORM_HANDLER_ENTRY } from '../../local/paths.js';
import { startStack } from '../../local/stack.js';
import { defaultNodePath } from '../../local/runtime-api/index.js';
import { type WarmupSummary, warmDynamoDbLocalWrites } from '../federation/dynamodb-warmup.js';

const coldRuns = Number(process.env['BENCH_COLD_RUNS'] ?? 15);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 7);
const warmupRounds = Number(process.env['BENCH_WARMUP'] ?? 3);
const events = Number(process.env['BENCH_EVENTS'] ?? 20_000);
const dynamoDbWarmupMs = Number(process.env['BENCH_DYNAMODB_WARMUP_MS'] ?? 8_000);
/**
 * `streaming` skips the bundle and cold-start sections, `cold` skips the streaming rounds (quick loops while
 * tuning one of them).
 */
const only = process.env['BENCH_ONLY'];
if (only !== undefined && only !== 'streaming' && only !== 'cold')
  throw new Error(`BENCH_ONLY must be 'streaming' or 'cold', not '${only}'`);
const streamingOnly = only === 'streaming';
const coldOnly = only === 'cold';
const KB = 1024;
const TARGETS = {
  bundleBytes: 600 * KB,
  coldStartBytes: 364 * KB,
  coldStartMs: 250,
  coldStartFloorRatio: 2,
  streamingRatio: 2,
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Sends one request; resolves with the times (performance.now()) of the first body byte and of the end. */
function timedRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; firstByteAt: number; endAt: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        let firstByteAt = 0;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (firstByteAt === 0) firstByteAt = performance.now();
          bytes += chunk.byteLength;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, firstByteAt, endAt: performance.now(), bytes }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

async function measureBundle(): Promise<{ bytes: number; gzipBytes: number; coldStartBytes: number }> {
  const bundle = await bundleHandler({ entry: PLATFORM_HANDLER_ENTRY, outDir: '.local/bench/platform-size' });
  return { bytes: bundle.bytes, gzipBytes: bundle.gzipBytes, coldStartBytes: bundle.coldStartBytes };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench-lambda', version: '1.0.0' },
  },
});

async function measureColdStart(): Promise<{
  samples: number[];
  initSamples: number[];
  warmMs: number;
  warmup: WarmupSummary;
}> {
  const stack = await startStack({
    poolSize: 1,
    // API Gateway's completion invocations would share the one environment with the measured requests.
    completionInvocations: false,
    onFunctionLog: () => undefined,
  });
  try {
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...stack.clientHeaders,
    };
    // DynamoDB Local (a JVM) answers its first few thousand calls 3-10 times slower than once its request
    // path is compiled; DynamoDB the service is never cold in that sense. The bench's own client writes, reads
    // and deletes throwaway sessions-table items (what `initialize` does is a PutItem there) until it is warm,
    // so the samples measure the function, which gets no head start from it (a fresh process every sample).
    const table = stack.environment[sessionsTable.envVar];
    const warmup =
      dynamoDbWarmupMs > 0 && stack.dynamoDbEndpoint !== undefined && table !== undefined
        ? await warmDynamoDbLocalWrites(stack.dynamoDbEndpoint, table, sessionsTable.partitionKey.name, {
            durationMs: dynamoDbWarmupMs,
          })
        : { reads: 0, lastMedianMs: NaN };
    // The old way (and still done): a few calls through the function, which also warm the front.
    for (let run = 0; run < 3; run += 1)
      await timedRequest(stack.url, { method: 'POST', headers, body: INITIALIZE });
    const samples: number[] = [];
    const initSamples: number[] = [];
    for (let run = 0; run < coldRuns; run += 1) {
      const spawnedAt = await stack.pool.recycle();
      const response = await timedRequest(stack.url, { method: 'POST', headers, body: INITIALIZE });
      if (response.status !== 200) throw new Error(`initialize answered ${response.status}`);
      samples.push(response.firstByteAt - spawnedAt);
      initSamples.push(stack.pool.initDurationsMs[0] ?? Number.NaN);
    }
    const warmStart = performance.now();
    const warm = await timedRequest(stack.url, { method: 'POST', headers, body: INITIALIZE });
    return { samples, initSamples, warmMs: warm.firstByteAt - warmStart, warmup };
  } finally {
    await stack.close();
  }
}

/** Starts a benchmark helper script under the same Node.js 22 as the runtime processes. */
function startHelper(name: string): ChildProcess {
  const script = fileURLToPath(new URL(name, import.meta.url));
  return spawn(defaultNodePath(), ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
}

async function startPlainServer(): Promise<{ url: string; stop: () => void }> {
  const child = startHelper('./plain-server.ts');
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => child.stdin?.end() };
}

/** The reader in its own process: asks it to stream one URL and returns the elapsed milliseconds. */
function startStreamClient(): { fetch: (url: string) => Promise<number>; stop: () => void } {
  const child = startHelper('./stream-client.ts');
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    fetch: async (url) => {
      child.stdin!.write(`${url}\n`);
      const next = await lines.next();
      const result = JSON.parse(String(next.value)) as { ms: number; status: number };
      if (result.status !== 200) throw new Error(`${url} answered ${result.status}`);
      return result.ms;
    },
    stop: () => child.stdin?.end(),
  };
}

async function measureStreaming(): Promise<{
  lambdaUs: number;
  plainUs: number;
  floorSamples: number[];
}> {
  const stack = await startStack({
    handlerEntry: fileURLToPath(new URL('./burst-handler.ts', import.meta.url)),
    bundleDir: '.local/bench/burst',
    poolSize: 1,
    // API Gateway's completion invocations would share the one environment with the measured requests.
    completionInvocations: false,
    onFunctionLog: () => undefined,
  });
  const plain = await startPlainServer();
  const client = startStreamClient();
  try {
    // The cold-start floor: a fresh runtime process until the first byte of this one-frame handler.
    const floorSamples: number[] = [];
    if (!streamingOnly) {
      for (let run = 0; run < coldRuns; run += 1) {
        const spawnedAt = await stack.pool.recycle();
        const response = await timedRequest(`${stack.url}?count=1`);
        if (response.status !== 200) throw new Error(`floor request answered ${response.status}`);
        floorSamples.push(response.firstByteAt - spawnedAt);
      }
    }
    if (coldOnly) return { lambdaUs: Number.NaN, plainUs: Number.NaN, floorSamples };
    const sides = [
      { url: `${stack.url}?count=${events}`, samples: [] as number[] },
      { url: `${plain.url}?count=${events}`, samples: [] as number[] },
    ];
    // Warm both sides (JIT of the runtime client's write path), then alternate so drift hits both alike.
    for (let round = 0; round < warmupRounds; round += 1)
      for (const side of sides) await client.fetch(side.url);
    for (let round = 0; round < rounds; round += 1) {
      for (const side of sides) side.samples.push(((await client.fetch(side.url)) * 1000) / events);
    }
    return { lambdaUs: median(sides[0]!.samples), plainUs: median(sides[1]!.samples), floorSamples };
  } finally {
    client.stop();
    plain.stop();
    await stack.close();
  }
}

const bundle = streamingOnly ? undefined : await measureBundle();
const cold = streamingOnly ? undefined : await measureColdStart();
const streaming = await measureStreaming();
const coldMedian = cold === undefined ? undefined : median(cold.samples);
const ratio = streaming.lambdaUs / streaming.plainUs;

const rows: Array<[string, string, string, string]> = [];
if (bundle !== undefined) {
  rows.push(
    [
      'bundle minified',
      `${(bundle.bytes / KB).toFixed(1)} KB`,
      `≤ ${TARGETS.bundleBytes / KB} KB`,
      ok(bundle.bytes <= TARGETS.bundleBytes),
    ],
    ['bundle gzip', `${(bundle.gzipBytes / KB).toFixed(1)} KB`, '-', '-'],
    [
      '  loaded at cold start (entry + static chunks)',
      `${(bundle.coldStartBytes / KB).toFixed(1)} KB`,
      `≤ ${TARGETS.coldStartBytes / KB} KB`,
      ok(bundle.coldStartBytes <= TARGETS.coldStartBytes),
    ],
  );
}
if (cold !== undefined && coldMedian !== undefined) {
  rows.push(
    [
      `cold start median (n=${cold.samples.length})`,
      `${coldMedian.toFixed(1)} ms`,
      `≤ ${TARGETS.coldStartMs} ms`,
      ok(coldMedian <= TARGETS.coldStartMs),
    ],
    ['  of which init (spawn → /next)', `${median(cold.initSamples).toFixed(1)} ms`, '-', '-'],
    [
      'cold start min / max',
      `${Math.min(...cold.samples).toFixed(1)} / ${Math.max(...cold.samples).toFixed(1)} ms`,
      '-',
      '-',
    ],
    ['warm initialize', `${cold.warmMs.toFixed(1)} ms`, '-', '-'],
    [
      '  DynamoDB Local warm-up before the samples',
      cold.warmup.reads > 0
        ? `${cold.warmup.reads} calls, last 100 median ${cold.warmup.lastMedianMs.toFixed(1)} ms`
        : 'off (BENCH_DYNAMODB_WARMUP_MS=0)',
      '-',
      '-',
    ],
    ['  floor: one-frame handler cold', `${median(streaming.floorSamples).toFixed(1)} ms`, '-', '-'],
    [
      'cold start ÷ floor',
      `${(coldMedian / median(streaming.floorSamples)).toFixed(2)}×`,
      `≤ ${TARGETS.coldStartFloorRatio}×`,
      ok(coldMedian <= TARGETS.coldStartFloorRatio * median(streaming.floorSamples)),
    ],
  );
}
if (!coldOnly)
  rows.push(
    [`stream via RIC + front (${events} ev)`, `${streaming.lambdaUs.toFixed(2)} µs/event`, '-', '-'],
    ['stream via plain node:http', `${streaming.plainUs.toFixed(2)} µs/event`, '-', '-'],
    [
      'streaming overhead ratio',
      `${ratio.toFixed(2)}×`,
      `≤ ${TARGETS.streamingRatio}×`,
      ok(ratio <= TARGETS.streamingRatio),
    ],
  );

function ok(met: boolean): string {
  return met ? 'met' : 'MISSED';
}

const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length), 8));
const line = (cells: readonly string[]): string => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
process.stdout.write(`${line(['measure', 'value', 'target', 'status'])}\n`);
for (const row of rows) process.stdout.write(`${line(row)}\n`);
process.stdout.write(
  `${JSON.stringify({
    bench: 'lambda',
    ...(bundle === undefined
      ? {}
      : {
          bundleBytes: bundle.bytes,
          bundleGzipBytes: bundle.gzipBytes,
          bundleColdStartBytes: bundle.coldStartBytes,
        }),
    ...(cold === undefined || coldMedian === undefined
      ? {}
      : {
          coldStartMedianMs: Number(coldMedian.toFixed(1)),
          coldStartSamplesMs: cold.samples.map((sample) => Number(sample.toFixed(1))),
          initMedianMs: Number(median(cold.initSamples).toFixed(1)),
          warmInitializeMs: Number(cold.warmMs.toFixed(1)),
          dynamoDbWarmupCalls: cold.warmup.reads,
          coldStartFloorMedianMs: Number(median(streaming.floorSamples).toFixed(1)),
        }),
    ...(coldOnly
      ? {}
      : {
          streamingEvents: events,
          lambdaUsPerEvent: Number(streaming.lambdaUs.toFixed(3)),
          plainUsPerEvent: Number(streaming.plainUs.toFixed(3)),
          streamingRatio: Number(ratio.toFixed(3)),
        }),
    loadAverage1m: Number(loadavg()[0]?.toFixed(2)),
    targets: TARGETS,
  })}\n`,
);
