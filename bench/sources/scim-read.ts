/**
 * One SCIM read through the `scim` adapter and the federation engine, against the local SCIM server run in
 * its own process (`local/providers/scim/serve.ts`), so the figures are the platform side's only:
 * time from the server's first answered page to the first delivery page, wall time of the whole read,
 * CPU of this process during it, and peak RSS. `BENCH_SCIM_PEOPLE` (default 5000) sets the population.
 * Prints a table and one JSON line.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { runFederation } from '../../lambda/federation/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../lambda/sources/scim/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';

const people = Number(process.env['BENCH_SCIM_PEOPLE'] ?? 5000);
const child = spawn(process.execPath, ['--import', 'tsx', 'local/providers/scim/serve.ts', String(people)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const next = async (): Promise<Record<string, unknown>> =>
  JSON.parse(String((await lines.next()).value)) as Record<string, unknown>;
try {
  const { baseUrl, token } = (await next()) as { baseUrl: string; token: string };
  const spec: SourceSpec = {
    source_id: 'acme-scim',
    adapter: 'scim',
    options: { base_url: baseUrl, page_size: 200 },
    credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(token) },
  };
  const adapter = createScimSource(spec, scimOptionsFromSpec(spec), { allowLoopbackHttp: true });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
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
      firstPageAt ??= Date.now();
      records += event.records.length;
    },
  });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  const { firstPageAnsweredAt } = (await next()) as { firstPageAnsweredAt: number };
  const figures = {
    people,
    records,
    result_count: result.metadata.result_count,
    completeness: result.metadata.completeness,
    first_page_after_server_ms: (firstPageAt ?? NaN) - firstPageAnsweredAt,
    wall_ms: Math.round(wallMs),
    cpu_ms: Math.round((used.user + used.system) / 1000),
    peak_rss_mb: Math.round(peakRss / 1048576),
  };
  for (const [name, value] of Object.entries(figures)) process.stdout.write(`${name.padEnd(28)} ${value}\n`);
  process.stdout.write(`${JSON.stringify({ bench: 'scim-read', ...figures })}\n`);
} finally {
  child.kill('SIGTERM');
}
