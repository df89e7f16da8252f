/**
 * Cold-start CPU of the platform function: fresh Node.js 22 processes (Lambda's heap flags), each loading the
 * bundled platform entry under an `awslambda` global, composing the platform at init as Lambda's init phase
 * does, and answering one authenticated `initialize`; each reports its own CPU time (user + system, from
 * process start) at the first byte of the answer. CPU, not wall time, because on a loaded machine the wall
 * time of a cold start varies by far more than the differences worth measuring, while a millisecond of CPU at
 * cold start costs at least a millisecond of wall time on a 1,024 MB Lambda.
 *
 * The sessions live in memory (no DynamoDB Local), so the figure is the function's own work, not the store's.
 * Each process also reports which of Node's own modules it had loaded by then: most of a cold start's CPU is
 * Node loading those, and undici (behind `fetch`, `Request`, `Response` and `Headers`) brings in `http2`,
 * `tls`, `zlib` and `worker_threads` with it (docs/performance.md "Cold start").
 *
 * Env: BENCH_COLD_CPU_RUNS (default 10), BENCH_BUNDLE_DIR (default `.local/bench/cold-cpu`).
 * `npm run bench:cold-cpu`
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleHandler } from '../../local/bundle.js';
import { startDevIssuer } from '../../local/dev-auth/index.js';
import { lambdaHeapFlags } from '../../local/lambda-heap.js';
import { fromRepo } from '../../local/paths.js';
import { defaultNodePath } from '../../local/runtime-api/index.js';

const runs = Number(process.env['BENCH_COLD_CPU_RUNS'] ?? 10);
const bundleDir = fromRepo(process.env['BENCH_BUNDLE_DIR'] ?? '.local/bench/cold-cpu');
const ENDPOINT = 'http://127.0.0.1:3999/mcp/apps/bos/platform';

/** The child: plain ESM (no loader of ours in the measured process). */
const CHILD = `
import { Writable } from 'node:stream';
globalThis.awslambda = {
  streamifyResponse: (handler) => handler,
  HttpResponseStream: { from: (stream, metadata) => ((globalThis.benchStatus = metadata.statusCode), stream) },
};
const { handler } = await import(process.env.BENCH_BUNDLE_FILE);
const stream = new Writable({
  write(chunk, encoding, callback) {
    if (chunk.length > 0 && !this.reported) {
      this.reported = true;
      const cpu = process.cpuUsage();
      const status = globalThis.benchStatus;
      const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule '))
        .map((m) => m.slice('NativeModule '.length));
      process.stdout.write(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, status, builtins }) + '\\n');
      process.exit(0);
    }
    callback();
  },
});
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
  protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-cold-cpu', version: '1' } } });
const event = {
  resource: '/mcp/apps/bos/platform', path: '/mcp/apps/bos/platform', httpMethod: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    Authorization: 'Bearer ' + process.env.BENCH_TOKEN, Host: '127.0.0.1:3999' },
  multiValueHeaders: {}, queryStringParameters: null, multiValueQueryStringParameters: null,
  pathParameters: null, stageVariables: null, body, isBase64Encoded: false,
  requestContext: { requestId: 'r1', stage: 'local', path: '/mcp/apps/bos/platform',
    resourcePath: '/mcp/apps/bos/platform', httpMethod: 'POST', identity: { sourceIp: '127.0.0.1' } },
};
const started = Date.now();
await handler(event, stream, {
  awsRequestId: 'cold-1', functionName: 'platform', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:platform', memoryLimitInMB: '1024',
  getRemainingTimeInMillis: () => 30000 - (Date.now() - started),
});
`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** What one process reported: its CPU time and the names of Node's own modules it had loaded. */
interface ChildSample {
  cpuMs: number;
  builtins: string[];
}

/** Node's own modules worth naming in the table: each costs milliseconds to load, and undici loads the rest. */
const HEAVY_BUILTINS = {
  undici: 'internal/deps/undici/undici',
  http2: 'http2',
  https: 'https',
  zlib: 'zlib',
  worker_threads: 'worker_threads',
};

function runChild(driver: string, env: Record<string, string>): Promise<ChildSample> {
  return new Promise((resolve, reject) => {
    const child = spawn(defaultNodePath(), [...lambdaHeapFlags(1024), driver], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('close', () => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('{"cpuMs"'));
      if (line === undefined) reject(new Error('the child reported no first byte'));
      else {
        const { cpuMs, status, builtins } = JSON.parse(line) as ChildSample & { status: number };
        if (status === 200) resolve({ cpuMs, builtins });
        else reject(new Error(`initialize answered ${status}`));
      }
    });
  });
}

const bundle = await bundleHandler({ entry: 'lambda/handlers/platform.ts', outDir: bundleDir });
const driver = join(bundleDir, 'cold-cpu-child.mjs');
await writeFile(driver, CHILD);
const issuer = await startDevIssuer({ audience: ENDPOINT });
try {
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    TZ: ':UTC',
    BENCH_BUNDLE_FILE: pathToFileURL(bundle.file).href,
    BENCH_TOKEN: issuer.tokens['dev-user'] ?? '',
    AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_FUNCTION_NAME: 'platform',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
    AWS_REGION: 'us-east-1',
    MCP_ENDPOINT: ENDPOINT,
    AUTH_ISSUER: issuer.issuer,
    AUTH_AUDIENCE: issuer.audience,
    AUTH_JWKS_URL: issuer.jwksUrl,
  };
  await runChild(driver, env); // warms the file cache and the issuer
  const children: ChildSample[] = [];
  for (let run = 0; run < runs; run += 1) children.push(await runChild(driver, env));
  const samples = children.map((child) => child.cpuMs);
  // The same bundle loads the same modules in every process; the last one's list stands for all.
  const loaded = new Set(children.at(-1)?.builtins ?? []);
  const heavy = Object.entries(HEAVY_BUILTINS)
    .filter(([, module]) => loaded.has(module))
    .map(([name]) => name);
  const result = {
    bench: 'cold-cpu',
    runs: samples.length,
    medianCpuMs: Number(median(samples).toFixed(1)),
    minCpuMs: Number(Math.min(...samples).toFixed(1)),
    maxCpuMs: Number(Math.max(...samples).toFixed(1)),
    bundleBytes: bundle.bytes,
    coldStartBytes: bundle.coldStartBytes,
    nodeBuiltinsLoaded: loaded.size,
    heavyBuiltinsLoaded: heavy,
  };
  process.stdout.write(
    [
      '| measure | value |',
      '| --- | --- |',
      `| cold start CPU median (n=${result.runs}) | ${result.medianCpuMs} ms |`,
      `| min / max | ${result.minCpuMs} / ${result.maxCpuMs} ms |`,
      `| bundle loaded at cold start | ${(result.coldStartBytes / 1024).toFixed(1)} KB |`,
      `| Node built-in modules loaded | ${result.nodeBuiltinsLoaded} (${heavy.join(', ') || 'none of the heavy ones'}) |`,
      '',
    ].join('\n'),
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await issuer.close();
}
