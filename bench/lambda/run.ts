/**
 * `npm run bench:lambda`: the Lambda path measured on the local stack (real runtime client, real bundle).
 *
 * 1. Bundle size of `lambda/handlers/platform.ts` with the deploy-time esbuild options (minified, gzip).
 * 2. Cold start: a fresh runtime process until the first byte of an MCP `initialize` response reaches an HTTP
 *    client through the REST front (median of BENCH_COLD_RUNS).
 * 3. Streaming overhead: BENCH_EVENTS SSE frames written by a streaming handler under the runtime client and
 *    relayed by the front, versus the same frames written by a plain `node:http` server (each side's writer
 *    in its own process), median of BENCH_ROUNDS alternating rounds.
 *
 * Targets (issue): bundle ≤ 600 KB minified, cold start ≤ 250 ms median, streaming ≤ 2× plain Node.
 * Prints a table and one JSON line. Not a test: nothing here fails a build.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleHandler } from '../../local/bundle.js';
import { PLATFORM_HANDLER_ENTRY } from '../../local/paths.js';
import { startStack } from '../../local/stack.js';
import { defaultNodePath } from '../../local/runtime-api/index.js';

const coldRuns = Number(process.env['BENCH_COLD_RUNS'] ?? 15);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const events = Number(process.env['BENCH_EVENTS'] ?? 20_000);
const KB = 1024;
const TARGETS = { bundleBytes: 600 * KB, coldStartMs: 250, streamingRatio: 2 };

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
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let firstByteAt = 0;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (firstByteAt === 0) firstByteAt = performance.now();
        bytes += chunk.byteLength;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, firstByteAt, endAt: performance.now(), bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function measureBundle(): Promise<{ bytes: number; gzipBytes: number }> {
  const bundle = await bundleHandler({ entry: PLATFORM_HANDLER_ENTRY, outDir: '.local/bench/platform-size' });
  return { bytes: bundle.bytes, gzipBytes: bundle.gzipBytes };
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

async function measureColdStart(): Promise<{ samples: number[]; warmMs: number }> {
  const stack = await startStack({ poolSize: 1, onFunctionLog: () => undefined });
  try {
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...stack.clientHeaders,
    };
    const samples: number[] = [];
    for (let run = 0; run < coldRuns; run += 1) {
      const spawnedAt = await stack.pool.recycle();
      const response = await timedRequest(stack.url, { method: 'POST', headers, body: INITIALIZE });
      if (response.status !== 200) throw new Error(`initialize answered ${response.status}`);
      samples.push(response.firstByteAt - spawnedAt);
    }
    const warmStart = performance.now();
    const warm = await timedRequest(stack.url, { method: 'POST', headers, body: INITIALIZE });
    return { samples, warmMs: warm.firstByteAt - warmStart };
  } finally {
    await stack.close();
  }
}

async function startPlainServer(): Promise<{ url: string; stop: () => void }> {
  const script = fileURLToPath(new URL('./plain-server.ts', import.meta.url));
  // Same Node.js 22 as the runtime processes, so only the path differs between the two sides.
  const child = spawn(defaultNodePath(), ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => child.stdin?.end() };
}

async function measureStreaming(): Promise<{ lambdaUs: number; plainUs: number }> {
  const stack = await startStack({
    handlerEntry: fileURLToPath(new URL('./burst-handler.ts', import.meta.url)),
    bundleDir: '.local/bench/burst',
    poolSize: 1,
    onFunctionLog: () => undefined,
  });
  const plain = await startPlainServer();
  try {
    const lambda: number[] = [];
    const node: number[] = [];
    // One warm-up each, then alternate so drift hits both sides alike.
    await timedRequest(`${stack.url}?count=${events}`);
    await timedRequest(`${plain.url}?count=${events}`);
    for (let round = 0; round < rounds; round += 1) {
      for (const [url, into] of [
        [`${stack.url}?count=${events}`, lambda],
        [`${plain.url}?count=${events}`, node],
      ] as const) {
        const startedAt = performance.now();
        const response = await timedRequest(url);
        into.push(((response.endAt - startedAt) * 1000) / events);
      }
    }
    return { lambdaUs: median(lambda), plainUs: median(node) };
  } finally {
    plain.stop();
    await stack.close();
  }
}

const bundle = await measureBundle();
const cold = await measureColdStart();
const streaming = await measureStreaming();
const coldMedian = median(cold.samples);
const ratio = streaming.lambdaUs / streaming.plainUs;

const rows: Array<[string, string, string, string]> = [
  ['bundle minified', `${(bundle.bytes / KB).toFixed(1)} KB`, `≤ ${TARGETS.bundleBytes / KB} KB`, ok(bundle.bytes <= TARGETS.bundleBytes)],
  ['bundle gzip', `${(bundle.gzipBytes / KB).toFixed(1)} KB`, '-', '-'],
  [`cold start median (n=${cold.samples.length})`, `${coldMedian.toFixed(1)} ms`, `≤ ${TARGETS.coldStartMs} ms`, ok(coldMedian <= TARGETS.coldStartMs)],
  ['cold start min / max', `${Math.min(...cold.samples).toFixed(1)} / ${Math.max(...cold.samples).toFixed(1)} ms`, '-', '-'],
  ['warm initialize', `${cold.warmMs.toFixed(1)} ms`, '-', '-'],
  [`stream via RIC + front (${events} ev)`, `${streaming.lambdaUs.toFixed(2)} µs/event`, '-', '-'],
  ['stream via plain node:http', `${streaming.plainUs.toFixed(2)} µs/event`, '-', '-'],
  ['streaming overhead ratio', `${ratio.toFixed(2)}×`, `≤ ${TARGETS.streamingRatio}×`, ok(ratio <= TARGETS.streamingRatio)],
];

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
    bundleBytes: bundle.bytes,
    bundleGzipBytes: bundle.gzipBytes,
    coldStartMedianMs: Number(coldMedian.toFixed(1)),
    coldStartSamplesMs: cold.samples.map((sample) => Number(sample.toFixed(1))),
    warmInitializeMs: Number(cold.warmMs.toFixed(1)),
    streamingEvents: events,
    lambdaUsPerEvent: Number(streaming.lambdaUs.toFixed(3)),
    plainUsPerEvent: Number(streaming.plainUs.toFixed(3)),
    streamingRatio: Number(ratio.toFixed(3)),
    targets: TARGETS,
  })}\n`,
);
