/**
 * SCIM reads through the `scim` adapter and the federation engine, against the local SCIM server run in
 * its own process (`local/providers/scim/serve.ts`), so the figures are the platform side's only. The
 * first read is the cold one (a fresh process: nothing compiled yet, `/ServiceProviderConfig` still to be
 * read); `BENCH_SCIM_ROUNDS` (default 5) warm reads of the same adapter follow, as a warm function would
 * run them. Per read: time from the server's first answered `/Users` page to the first delivery page,
 * wall time of the whole read and CPU of this process during it; peak RSS over all reads.
 * `BENCH_SCIM_PEOPLE` (default 5000) sets the population. Prints a table and one JSON line.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { runFederation } from '../../lambda/federation/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../lambda/sources/scim/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';

const people = Number(process.env['BENCH_SCIM_PEOPLE'] ?? 5000);
const rounds = Number(process.env['BENCH_SCIM_ROUNDS'] ?? 5);
const now = () => performance.timeOrigin + performance.now();
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

interface Read {
  records: number;
  completeness: string;
  firstPageAfterServerMs: number;
  wallMs: number;
  cpuMs: number;
}

const loadAtStart = loadavg()[0] ?? NaN;
const child = spawn(process.execPath, ['--import', 'tsx', 'local/providers/scim/serve.ts', String(people)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
// The server's lines: its address first, then one per answered `/Users` request.
const firstPages: number[] = [];
let announce: ((line: string) => void) | undefined;
const announced = new Promise<string>((resolve) => (announce = resolve));
createInterface({ input: child.stdout }).on('line', (line) => {
  if (announce !== undefined) {
    announce(line);
    announce = undefined;
    return;
  }
  const answer = JSON.parse(line) as { answeredAt: number; firstPage: boolean };
  if (answer.firstPage) firstPages.push(answer.answeredAt);
});

try {
  const { baseUrl, token } = JSON.parse(await announced) as { baseUrl: string; token: string };
  const spec: SourceSpec = {
    source_id: 'acme-scim',
    adapter: 'scim',
    options: { base_url: baseUrl, page_size: 200 },
    credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(token) },
  };
  const adapter = createScimSource(spec, scimOptionsFromSpec(spec), { allowLoopbackHttp: true });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);

  const readOnce = async (): Promise<Read> => {
    const answered = firstPages.length;
    let firstPageAt: number | undefined;
    let records = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await runFederation({
      sources: [adapter],
      query: { operation: 'list_people' },
      deadline: Date.now() + 600_000,
      onEvent: (event) => {
        if (event.type !== 'page') return;
        firstPageAt ??= now();
        records += event.records.length;
      },
    });
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    // The server reports its answer a moment after writing it.
    while (firstPages.length === answered) await new Promise((resolve) => setTimeout(resolve, 5));
    return {
      records,
      completeness: result.metadata.completeness,
      firstPageAfterServerMs: (firstPageAt ?? NaN) - (firstPages[answered] ?? NaN),
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
    };
  };

  const cold = await readOnce();
  const warm: Read[] = [];
  for (let round = 0; round < rounds; round++) warm.push(await readOnce());
  clearInterval(sampler);
  const figures = {
    people,
    records: cold.records,
    completeness: cold.completeness,
    cold_first_page_after_server_ms: Number(cold.firstPageAfterServerMs.toFixed(1)),
    cold_wall_ms: Math.round(cold.wallMs),
    cold_cpu_ms: Math.round(cold.cpuMs),
    warm_rounds: warm.length,
    warm_first_page_after_server_ms: Number(median(warm.map((r) => r.firstPageAfterServerMs)).toFixed(1)),
    warm_wall_ms: Math.round(median(warm.map((r) => r.wallMs))),
    warm_cpu_ms: Math.round(median(warm.map((r) => r.cpuMs))),
    peak_rss_mb: Math.round(peakRss / 1048576),
    load_average_start: Number(loadAtStart.toFixed(2)),
    load_average: Number(loadavg()[0]?.toFixed(2)),
  };
  process.stdout.write(
    `SCIM read of ${people} people (node ${process.version}; warm figures are medians of ${warm.length} reads)\n`,
  );
  for (const [name, value] of Object.entries(figures)) process.stdout.write(`${name.padEnd(32)} ${value}\n`);
  process.stdout.write(`${JSON.stringify({ bench: 'scim-read', ...figures })}\n`);
} finally {
  child.kill('SIGTERM');
}
