/**
 * Time to first source page, streaming vs plain JSON, through the whole local stack (RIC + REST v1 front +
 * DynamoDB Local), side by side in one run on the demo directory, on the synthetic fixture preset and on a
 * real SCIM source (`scim-scenario.ts`: the People context reading `acme-scim` from the local SCIM server
 * in its own process; target: the first page readable by the client within 25 ms of the SCIM server's
 * first answer) (DESIGN §8: prints a table and one JSON line; never a timed test).
 *
 * Each round sends the same stateless (2026-07-28) `bos_execute` → `list_people` call in the People context
 * twice to a warm function: once with the `bos/source-results/v1` opt-in (time until the first `status: "page"` frame is
 * read) and once without (a client sees its first source page only with the whole JSON response). Targets:
 * streaming ≤ the fastest source's first-page latency + 25 ms, and ≥ 5× earlier than JSON.
 * Before measuring, DynamoDB Local is warmed with direct reads (`dynamodb-warmup.ts`: a fresh JVM answers a
 * `GetItem` in ~10 ms, a warm one in ~3.6 ms; DynamoDB the service is never that cold).
 * Knobs: `BENCH_ROUNDS` (default 9), `BENCH_WARMUP` (default 2), `BENCH_DYNAMODB_WARMUP_MS` (default 8000; 0
 * turns the DynamoDB Local warm-up off), `BENCH_CLIENT` (`process`, the default: the client runs in a process
 * of its own, as a real client does, so its garbage collections do not pause the local front and the Runtime
 * API in the middle of a call; `inline`: in this process), `BENCH_SCENARIOS` (default `demo,synthetic,scim,cached`:
 * which scenarios run). The `cached` scenario (`cached-scenario.ts`) reads the same SCIM source with the source
 * cache on and then live: target, the cached source's first page under 20 ms median from sending the call.
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { fixturePreset } from '../../lambda/sources/index.js';
import type { FixturePresetName } from '../../lambda/sources/index.js';
import { startStack } from '../../local/stack.js';
import { warmDynamoDbLocal } from './dynamodb-warmup.js';
import type { WarmupSummary } from './dynamodb-warmup.js';
import { runRounds } from './first-page-client.js';
import type { RoundsOptions, RoundTimings } from './first-page-client.js';
import { measureCachedRounds } from './cached-scenario.js';
import { measureScimRounds } from './scim-scenario.js';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 9);
const warmup = Number(process.env['BENCH_WARMUP'] ?? 2);
const clientMode = process.env['BENCH_CLIENT'] === 'inline' ? 'inline' : 'process';
const dynamoDbWarmupMs = Number(process.env['BENCH_DYNAMODB_WARMUP_MS'] ?? 8_000);
const chosen = new Set((process.env['BENCH_SCENARIOS'] ?? 'demo,synthetic,scim,cached').split(','));

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};

/** The client's rounds, in a process of its own or in this one (`BENCH_CLIENT=inline`). */
function clientRounds(options: RoundsOptions): Promise<RoundTimings> {
  if (clientMode === 'inline') return runRounds(options);
  const child = fork(fileURLToPath(new URL('./first-page-client.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
  });
  return new Promise<RoundTimings>((resolve, reject) => {
    child.once('message', (timings: RoundTimings) => resolve(timings));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the client process exited with code ${code}`)));
    child.send(options);
  });
}

interface Scenario {
  name: string;
  preset: FixturePresetName;
  fastestFirstPageMs: number;
  streamingMs: number;
  jsonMs: number;
  warmup: WarmupSummary;
}

async function measure(preset: FixturePresetName): Promise<Scenario> {
  const stack = await startStack({
    bundleDir: `.local/bench/bos-streaming`,
    poolSize: 1,
    // API Gateway's completion invocations would share the one environment with the measured requests.
    completionInvocations: false,
    env: { BOS_FIXTURE_PRESET: preset },
    onFunctionLog: () => undefined,
  });
  try {
    const token = stack.devTokens?.['dev-user'] ?? '';
    const table = stack.environment['BOS_DIRECTORY_TABLE'];
    const dynamoDbWarmup =
      dynamoDbWarmupMs > 0 && stack.dynamoDbEndpoint !== undefined && table !== undefined
        ? await warmDynamoDbLocal(stack.dynamoDbEndpoint, table, { durationMs: dynamoDbWarmupMs })
        : { reads: 0, lastMedianMs: NaN };
    const { streaming, json } = await clientRounds({ url: stack.url, token, rounds, warmup });
    // The fastest configured provider latency before a source's first page (empty sources deliver none).
    const fastest = Math.min(
      ...fixturePreset(preset)
        .filter((o) => o.recordCount > 0)
        .map((o) => o.latencyMs ?? 0),
    );
    return {
      name: preset === 'demo' ? 'demo directory' : 'synthetic (5 × 500 records)',
      preset,
      fastestFirstPageMs: fastest,
      streamingMs: median(streaming),
      jsonMs: median(json),
      warmup: dynamoDbWarmup,
    };
  } finally {
    await stack.close();
  }
}

// The machine is shared: the load at the start and at the end bracket how noisy the figures are.
const loadAtStart = loadavg()[0] ?? NaN;
const scenarios: Scenario[] = [];
for (const preset of ['demo', 'synthetic'] as const)
  if (chosen.has(preset)) scenarios.push(await measure(preset));
const scim = chosen.has('scim')
  ? await measureScimRounds({ rounds, warmup, dynamoDbWarmupMs, clientRounds })
  : undefined;
const scimFigures = scim && {
  afterServerMs: median(scim.afterServerMs),
  streamingMs: median(scim.timings.streaming),
  jsonMs: median(scim.timings.json),
};
const SCIM_TARGET_MS = 25;
const cachedRounds = chosen.has('cached')
  ? await measureCachedRounds({ rounds, warmup, dynamoDbWarmupMs, clientRounds })
  : undefined;
const CACHED_TARGET_MS = 20;
const cachedFigures = cachedRounds && {
  cachedMs: median(cachedRounds.cached.streaming),
  liveMs: median(cachedRounds.live.streaming),
};

const rows = scenarios.flatMap((s) => {
  const target = s.fastestFirstPageMs + 25;
  return [
    [
      `${s.name}: fastest source first page`,
      `${s.fastestFirstPageMs.toFixed(0)} ms`,
      'configured provider latency',
    ],
    [
      `${s.name}: first page, streaming`,
      `${s.streamingMs.toFixed(1)} ms`,
      `target ≤ ${target} ms ${s.streamingMs <= target ? 'ok' : 'MISSED'}`,
    ],
    [`${s.name}: first page, plain JSON`, `${s.jsonMs.toFixed(1)} ms`, ''],
    [
      `${s.name}: DynamoDB Local warm-up`,
      `${s.warmup.reads} reads`,
      s.warmup.reads > 0 ? `last 100 reads: median ${s.warmup.lastMedianMs.toFixed(1)} ms` : 'off',
    ],
    [
      `${s.name}: JSON / streaming`,
      `${(s.jsonMs / s.streamingMs).toFixed(1)}×`,
      `target ≥ 5× ${s.jsonMs / s.streamingMs >= 5 ? 'ok' : 'MISSED'}`,
    ],
  ];
});
if (scim !== undefined && scimFigures !== undefined)
  rows.push(
    [
      'SCIM source: SCIM first answer → client first page',
      `${scimFigures.afterServerMs.toFixed(1)} ms`,
      `target ≤ ${SCIM_TARGET_MS} ms ${scimFigures.afterServerMs <= SCIM_TARGET_MS ? 'ok' : 'MISSED'} (rounds: ${scim.afterServerMs.map((ms) => ms.toFixed(0)).join(', ')})`,
    ],
    [
      'SCIM source: first page, streaming',
      `${scimFigures.streamingMs.toFixed(1)} ms`,
      'from sending the call',
    ],
    ['SCIM source: first page, plain JSON', `${scimFigures.jsonMs.toFixed(1)} ms`, ''],
    [
      'SCIM source: DynamoDB Local warm-up',
      `${scim.warmup.reads} reads`,
      scim.warmup.reads > 0 ? `last 100 reads: median ${scim.warmup.lastMedianMs.toFixed(1)} ms` : 'off',
    ],
  );
if (cachedRounds !== undefined && cachedFigures !== undefined)
  rows.push(
    [
      'cached SCIM source: first page, streaming',
      `${cachedFigures.cachedMs.toFixed(1)} ms`,
      `target < ${CACHED_TARGET_MS} ms ${cachedFigures.cachedMs < CACHED_TARGET_MS ? 'ok' : 'MISSED'} (rounds: ${cachedRounds.cached.streaming.map((ms) => ms.toFixed(0)).join(', ')})`,
    ],
    [
      'same SCIM source live: first page, streaming',
      `${cachedFigures.liveMs.toFixed(1)} ms`,
      `live / cached ${(cachedFigures.liveMs / cachedFigures.cachedMs).toFixed(1)}×`,
    ],
    ['cached SCIM source: baseline sync before the rounds', cachedRounds.sync, ''],
  );
const width = Math.max(...rows.map((r) => r[0]?.length ?? 0));
process.stdout.write(
  `bos streaming benchmark through the local stack (medians of ${rounds} rounds, ${clientMode} client, node ${process.version}, load average ${loadAtStart.toFixed(1)} → ${loadavg()[0]?.toFixed(1)})\n`,
);
for (const [name = '', value = '', note = ''] of rows)
  process.stdout.write(`${name.padEnd(width)}  ${value.padStart(10)}  ${note}\n`);
process.stdout.write(
  `${JSON.stringify({
    bench: 'bos-streaming',
    rounds,
    client: clientMode,
    scenarios: scenarios.map((s) => ({
      preset: s.preset,
      fastest_first_page_ms: s.fastestFirstPageMs,
      streaming_first_page_ms: Number(s.streamingMs.toFixed(1)),
      json_first_page_ms: Number(s.jsonMs.toFixed(1)),
      speedup: Number((s.jsonMs / s.streamingMs).toFixed(1)),
      dynamodb_warmup_reads: s.warmup.reads,
      within_target: s.streamingMs <= s.fastestFirstPageMs + 25 && s.jsonMs / s.streamingMs >= 5,
    })),
    scim: scim &&
      scimFigures && {
        first_page_after_scim_answer_ms: Number(scimFigures.afterServerMs.toFixed(1)),
        rounds_after_scim_answer_ms: scim.afterServerMs.map((ms) => Number(ms.toFixed(1))),
        streaming_first_page_ms: Number(scimFigures.streamingMs.toFixed(1)),
        json_first_page_ms: Number(scimFigures.jsonMs.toFixed(1)),
        dynamodb_warmup_reads: scim.warmup.reads,
        within_target: scimFigures.afterServerMs <= SCIM_TARGET_MS,
      },
    cached_scim: cachedFigures && {
      cached_first_page_ms: Number(cachedFigures.cachedMs.toFixed(1)),
      live_first_page_ms: Number(cachedFigures.liveMs.toFixed(1)),
      target_ms: CACHED_TARGET_MS,
      within_target: cachedFigures.cachedMs < CACHED_TARGET_MS,
    },
    load_average_start: Number(loadAtStart.toFixed(2)),
    load_average: Number(loadavg()[0]?.toFixed(2)),
  })}\n`,
);
