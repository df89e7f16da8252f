/**
 * SCIM reads through the `scim` adapter and the federation engine, against the local SCIM server run in
 * its own process (`local/providers/scim/serve.ts`), so the figures are the platform side's only.
 *
 * - `list`: `list_people`. The first read is the cold one (a fresh process: nothing compiled yet,
 *   `/ServiceProviderConfig` still to be read); `BENCH_SCIM_ROUNDS` (default 5) warm reads of the same
 *   adapter follow, as a warm function would run them.
 * - `search`: `search_people` for a common family name, against the full-featured server (its `co` filter
 *   answers) and beside it against a server without that filter (the `eq-only` profile: the adapter learns
 *   the refusal on a first read, then lists every user and matches here). One warm-up read each, then
 *   `BENCH_SCIM_ROUNDS` reads.
 *
 * Per read: time from the server's first answered `/Users` page to the first delivery page (`list` only),
 * from the start of the read to the first delivery page (`search`), wall time of the whole read and CPU
 * of this process during it; peak RSS per phase. `BENCH_SCIM_PEOPLE` (default 5000) sets the population.
 * Prints a table and one JSON line.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { runFederation } from '../../lambda/federation/index.js';
import type { SourceQuery } from '../../lambda/federation/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../lambda/sources/scim/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';
import { seededPopulation } from '../../local/providers/population.js';

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
  firstPageMs: number;
  wallMs: number;
  cpuMs: number;
}

/** One server process and an adapter on it. */
async function serve(profile?: 'eq-only') {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'local/providers/scim/serve.ts',
      String(people),
      ...(profile === undefined ? [] : [profile]),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
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
  const { baseUrl, token } = JSON.parse(await announced) as { baseUrl: string; token: string };
  const spec: SourceSpec = {
    source_id: 'acme-scim',
    adapter: 'scim',
    options: { base_url: baseUrl, page_size: 200 },
    credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(token) },
  };
  const adapter = createScimSource(spec, scimOptionsFromSpec(spec, true), { allowLoopbackHttp: true });

  const read = async (query: SourceQuery): Promise<Read> => {
    const answered = firstPages.length;
    let firstPageAt: number | undefined;
    let records = 0;
    const cpu = process.cpuUsage();
    const startedAt = now();
    const started = performance.now();
    const result = await runFederation({
      sources: [adapter],
      query,
      deadline: Date.now() + 600_000,
      onEvent: (event) => {
        if (event.type !== 'page') return;
        firstPageAt ??= now();
        records += event.records.length;
      },
    });
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    // The server reports its answer a moment after writing it (a refused filter is no first page).
    const until = Date.now() + 2000;
    while (firstPages.length === answered && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 5));
    return {
      records,
      completeness: result.metadata.completeness,
      firstPageAfterServerMs: (firstPageAt ?? NaN) - (firstPages[answered] ?? NaN),
      firstPageMs: (firstPageAt ?? NaN) - startedAt,
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
    };
  };
  return { read, close: () => child.kill('SIGTERM') };
}

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
const phasePeak = () => {
  const peak = Math.max(peakRss, process.memoryUsage().rss);
  peakRss = 0;
  return Math.round(peak / 1048576);
};
const loadAtStart = loadavg()[0] ?? NaN;

const full = await serve();
let listFigures: Record<string, number | string>;
const search: Record<string, Record<string, number | string>> = {};
// The family name most people share: a search that finds many, so paging and matching both count.
const names = seededPopulation({ name: 'acme-scim', size: people, overlap: 120 }).map((p) => p.familyName);
const common = [...new Set(names)].sort(
  (a, b) => names.filter((n) => n === b).length - names.filter((n) => n === a).length,
)[0]!;
const searchQuery: SourceQuery = { operation: 'search_people', query: common };
try {
  phasePeak();
  const cold = await full.read({ operation: 'list_people' });
  const warm: Read[] = [];
  for (let round = 0; round < rounds; round++) warm.push(await full.read({ operation: 'list_people' }));
  listFigures = {
    records: cold.records,
    completeness: cold.completeness,
    cold_first_page_after_server_ms: Number(cold.firstPageAfterServerMs.toFixed(1)),
    cold_wall_ms: Math.round(cold.wallMs),
    cold_cpu_ms: Math.round(cold.cpuMs),
    warm_rounds: warm.length,
    warm_first_page_after_server_ms: Number(median(warm.map((r) => r.firstPageAfterServerMs)).toFixed(1)),
    warm_wall_ms: Math.round(median(warm.map((r) => r.wallMs))),
    warm_cpu_ms: Math.round(median(warm.map((r) => r.cpuMs))),
    peak_rss_mb: phasePeak(),
  };
  const searchOn = async (name: string, server: Awaited<ReturnType<typeof serve>>) => {
    await server.read(searchQuery); // warm-up: capabilities read, and a refused filter learned
    phasePeak();
    const reads: Read[] = [];
    for (let round = 0; round < rounds; round++) reads.push(await server.read(searchQuery));
    search[name] = {
      records: reads[0]!.records,
      completeness: reads[0]!.completeness,
      first_page_ms: Number(median(reads.map((r) => r.firstPageMs)).toFixed(1)),
      wall_ms: Math.round(median(reads.map((r) => r.wallMs))),
      cpu_ms: Math.round(median(reads.map((r) => r.cpuMs))),
      peak_rss_mb: phasePeak(),
    };
  };
  await searchOn('server_filter', full);
  const restricted = await serve('eq-only');
  try {
    await searchOn('local_match', restricted);
  } finally {
    restricted.close();
  }
} finally {
  full.close();
  clearInterval(sampler);
}

const ratio = (key: string) =>
  Number((Number(search['local_match']![key]) / Number(search['server_filter']![key])).toFixed(2));
const figures = {
  people,
  list: listFigures,
  search_query: common,
  search,
  local_vs_server: { wall: ratio('wall_ms'), cpu: ratio('cpu_ms'), first_page: ratio('first_page_ms') },
  load_average_start: Number(loadAtStart.toFixed(2)),
  load_average: Number(loadavg()[0]?.toFixed(2)),
};
process.stdout.write(
  `SCIM reads of ${people} people (node ${process.version}; warm figures are medians of ${rounds} reads)\n`,
);
for (const [name, value] of Object.entries(listFigures))
  process.stdout.write(`list ${name.padEnd(34)} ${value}\n`);
process.stdout.write(`\nsearch_people "${common}"        server filter   local match (eq-only server)\n`);
for (const key of ['records', 'completeness', 'first_page_ms', 'wall_ms', 'cpu_ms', 'peak_rss_mb'])
  process.stdout.write(
    `${key.padEnd(30)} ${String(search['server_filter']![key]).padStart(13)}   ${String(search['local_match']![key]).padStart(13)}\n`,
  );
process.stdout.write(`${JSON.stringify({ bench: 'scim-read', ...figures })}\n`);
