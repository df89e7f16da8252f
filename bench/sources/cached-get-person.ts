/**
 * `get_person` on a large cached source against the same source read live, for SCIM (the local SCIM server)
 * and LDAP (the local slapd, when installed), through the federation engine. The baseline is synced once into
 * DynamoDB Local by the sync worker's own `syncSource`; then each lookup runs live (every person listed, the
 * engine keeps the cluster) and cached (record-ref, email and phone lookups of the baseline plus the delta since
 * its watermark), alternated in one sitting.
 *
 * Per lookup: wall time and provider requests. SCIM requests are the server's `/Users` requests; LDAP requests are
 * counted as the adapter's provider pages (one paged-results search request each; at least one per read).
 * Knobs: `BENCH_PEOPLE` (default 50000), `BENCH_LOOKUPS` (default 5), `BENCH_PROVIDERS` (default `scim,ldap`).
 * Prints a table and one JSON line.
 */
import { loadavg } from 'node:os';
import { createDynamoDbClient, DynamoDbBaselineStore } from '../../lambda/aws/index.js';
import { runFederation } from '../../lambda/federation/index.js';
import type { RawRecord, SourceAdapter } from '../../lambda/federation/index.js';
import { baselineIndexKeys } from '../../lambda/handlers/compose-baseline.js';
import { createCachedSource } from '../../lambda/sources/cache/cached-source.js';
import { changeFeedFor, syncSource } from '../../lambda/sources/cache/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';
import { createLdapSource, ldapOptionsFromSpec } from '../../lambda/sources/ldap/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../lambda/sources/scim/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { slapdPath, startSlapd } from '../../local/providers/ldap/index.js';
import { startScimServer } from '../../local/providers/scim/index.js';

const people = Number(process.env['BENCH_PEOPLE'] ?? 50_000);
const lookups = Number(process.env['BENCH_LOOKUPS'] ?? 5);
const providers = new Set((process.env['BENCH_PROVIDERS'] ?? 'scim,ldap').split(','));
const HOUR = 3_600_000;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** Counts a live adapter's reads and provider pages (every read costs at least one request). */
function counted(adapter: SourceAdapter): { adapter: SourceAdapter; requests: () => number } {
  let requests = 0;
  return {
    requests: () => requests,
    adapter: {
      ...adapter,
      async *read(query, options) {
        let pages = 0;
        try {
          for await (const page of adapter.read(query, options)) {
            pages++;
            yield page;
          }
        } finally {
          requests += Math.max(1, pages);
        }
      },
    },
  };
}

interface Row {
  provider: string;
  people: number;
  syncMs: number;
  liveMs: number;
  cachedMs: number;
  liveRequests: number;
  cachedRequests: number;
  sameAnswer: boolean;
}

async function measure(
  provider: string,
  spec: SourceSpec,
  live: SourceAdapter,
  requestsOf: () => number,
  store: DynamoDbBaselineStore<RawRecord>,
): Promise<Row> {
  const feed = changeFeedFor(spec, live);
  if (feed === undefined) throw new Error(`no change feed for ${spec.adapter}`);
  const syncStarted = Date.now();
  for (let outcome; outcome?.result !== 'full';) {
    outcome = await syncSource({
      sourceId: spec.source_id,
      store,
      feed,
      owner: 'bench',
      stopAt: Date.now() + 600_000,
      fullEveryMs: 24 * HOUR,
    });
    if (outcome.result === 'failed') throw new Error(`sync failed: ${outcome.errorName ?? ''}`);
  }
  const syncMs = Date.now() - syncStarted;
  const cached = createCachedSource({
    live,
    sourceId: spec.source_id,
    store,
    feed,
    policy: { refreshMs: HOUR, maxStalenessMs: HOUR },
  });
  // People spread over the population; each ref is the person's own (a single-source cluster).
  const everyone = await runFederation({
    sources: [live],
    query: { operation: 'list_people' },
    deadline: Date.now() + 600_000,
  });
  const step = Math.max(1, Math.floor(everyone.records.length / lookups));
  const refs = everyone.records.filter((_, i) => i % step === 0).slice(0, lookups);
  const liveMs: number[] = [];
  const cachedMs: number[] = [];
  const liveRequests: number[] = [];
  const cachedRequests: number[] = [];
  let sameAnswer = true;
  for (const { record_ref } of refs) {
    const query = { operation: 'get_person', record_ref } as const;
    const run = async (source: SourceAdapter, times: number[], requests: number[]) => {
      const before = requestsOf();
      const started = performance.now();
      const result = await runFederation({ sources: [source], query, deadline: Date.now() + 600_000 });
      times.push(performance.now() - started);
      requests.push(requestsOf() - before);
      return JSON.stringify(result.records);
    };
    const a = await run(live, liveMs, liveRequests);
    const b = await run(cached, cachedMs, cachedRequests);
    sameAnswer &&= a === b;
  }
  return {
    provider,
    people: everyone.records.length,
    syncMs,
    liveMs: median(liveMs),
    cachedMs: median(cachedMs),
    liveRequests: median(liveRequests),
    cachedRequests: median(cachedRequests),
    sameAnswer,
  };
}

async function main(): Promise<void> {
  const db = await startDynamoDbLocal({ tables: { schemas: [baselineTable], prefix: 'bench-' } });
  const client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 30_000 });
  const store = new DynamoDbBaselineStore<RawRecord>({
    client,
    tableName: `bench-${baselineTable.id}`,
    indexKeys: baselineIndexKeys,
  });
  const rows: Row[] = [];
  try {
    if (providers.has('scim')) {
      const scim = await startScimServer({ population: { name: 'acme-scim', size: people } });
      try {
        const spec: SourceSpec = {
          source_id: 'acme-scim',
          adapter: 'scim',
          options: { base_url: scim.baseUrl },
          credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(scim.token) },
        };
        const live = createScimSource(spec, scimOptionsFromSpec(spec, true), { allowLoopbackHttp: true });
        rows.push(await measure('scim', spec, live, () => scim.requests.length, store));
      } finally {
        await scim.close();
      }
    }
    if (providers.has('ldap') && slapdPath() !== undefined) {
      const ldap = await startSlapd({ population: { name: 'acme-ldap', size: people } });
      try {
        const spec: SourceSpec = {
          source_id: 'acme-ldap',
          adapter: 'ldap',
          options: { url: ldap.url, base_dn: ldap.baseDn, bind_dn: ldap.bindDn, page_size: 500 },
          credential: { name: 'ACME_LDAP_PASSWORD', value: () => Promise.resolve(ldap.bindPassword) },
        };
        const { adapter, requests } = counted(
          createLdapSource(spec, ldapOptionsFromSpec(spec), { allowLoopbackHttp: true }),
        );
        rows.push(await measure('ldap', spec, adapter, requests, store));
      } finally {
        await ldap.stop();
      }
    }
  } finally {
    client.destroy();
    await db.stop();
  }
  const load = loadavg().map((l) => l.toFixed(2));
  console.log(`get_person, cached vs live (medians of ${lookups} lookups; load average ${load.join(' ')})`);
  console.log('provider  people  sync ms  live ms  cached ms  live requests  cached requests  same answer');
  for (const r of rows)
    console.log(
      [
        r.provider.padEnd(8),
        String(r.people).padStart(6),
        String(r.syncMs).padStart(8),
        r.liveMs.toFixed(1).padStart(8),
        r.cachedMs.toFixed(1).padStart(10),
        String(r.liveRequests).padStart(14),
        String(r.cachedRequests).padStart(16),
        String(r.sameAnswer).padStart(12),
      ].join(' '),
    );
  console.log(JSON.stringify({ bench: 'cached-get-person', lookups, load_average: loadavg(), rows }));
}

await main();
