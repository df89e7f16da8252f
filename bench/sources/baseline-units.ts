/**
 * DynamoDB read and write units and storage of one cached source's baseline, per sync and per read, on
 * DynamoDB Local with the baseline table of `lib/table-schemas.ts` (three sparse indexes projecting every
 * attribute) and the real `DynamoDbBaselineStore`, whose client asks every command for its consumed capacity.
 *
 * The people are the local SCIM server's (`BENCH_PEOPLE`, default 50000), listed once through the `scim`
 * adapter, so each record is what that adapter maps (name, email, phone, lifecycle, user name, title,
 * department, employee number, `observed_at`). A change feed in memory then hands them to the sync worker's
 * own `syncSource`, as a provider's feed would, so no provider time is in the figures:
 *
 * 1. a full sync; 2. a delta sync of 1 % changed and 0.1 % deleted people (a feed that reports deletions, as
 *    Okta's and Entra's do);
 * 3. through the federation engine: the first baseline page alone, a cached `list_people`, a cached
 *    `search_people` for one person's name, the same for a family name with `limit: 25`, and `BENCH_LOOKUPS`
 *    (default 5) cached `get_person`;
 * 4. the daily full sync of a feed that does not report every deletion (every kind but `entra`), after 0.1 %
 *    more people left; 5. a purge.
 *
 * Exits non-zero when the baseline does not hold every person after the full sync (or any step ends other
 * than expected). Prints a table and one JSON line.
 */
import { loadavg } from 'node:os';
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, DynamoDbBaselineStore } from '../../lambda/aws/index.js';
import { runFederation } from '../../lambda/federation/index.js';
import type { RawRecord, SourceQuery } from '../../lambda/federation/index.js';
import { baselineIndexKeys } from '../../lambda/handlers/compose-baseline.js';
import { createCachedSource } from '../../lambda/sources/cache/cached-source.js';
import { syncSource } from '../../lambda/sources/cache/index.js';
import type { ChangeFeed, SyncOutcome } from '../../lambda/sources/cache/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../lambda/sources/scim/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { startScimServer } from '../../local/providers/scim/index.js';
import { meterCapacity, storageOf, total } from './dynamodb-units.js';
import type { Tally } from './dynamodb-units.js';
import { memoryFeed } from './memory-feed.js';

const people = Number(process.env['BENCH_PEOPLE'] ?? 50_000);
const lookups = Number(process.env['BENCH_LOOKUPS'] ?? 5);
const SOURCE = 'acme-scim';
const TABLE = `bench-${baselineTable.id}`;
const HOUR = 3_600_000;
const readOptions = () => ({ signal: new AbortController().signal, deadline: Date.now() + HOUR });

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`baseline-units: ${message}`);
}

/** Every person of a local SCIM server, as the `scim` adapter maps them. */
async function scimPeople(): Promise<RawRecord[]> {
  const scim = await startScimServer({ population: { name: SOURCE, size: people } });
  try {
    const spec: SourceSpec = {
      source_id: SOURCE,
      adapter: 'scim',
      options: { base_url: scim.baseUrl, page_size: 1000 },
      credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(scim.token) },
    };
    const live = createScimSource(spec, scimOptionsFromSpec(spec, true), { allowLoopbackHttp: true });
    const records: RawRecord[] = [];
    for await (const page of live.read({ operation: 'list_people' }, readOptions())) records.push(...page);
    return records;
  } finally {
    await scim.close();
  }
}

/** The baseline's record items, counted on a client that is not metered. */
async function countRecords(client: DynamoDBClient): Promise<number> {
  let count = 0;
  let start: QueryCommand['input']['ExclusiveStartKey'];
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
        ExpressionAttributeValues: { ':pk': { S: `SOURCE#${SOURCE}` }, ':r': { S: 'R#' } },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return count;
}

/** Every `step`-th person from `offset`. */
const every = (records: readonly RawRecord[], step: number, offset: number) =>
  records.filter((_, i) => i % step === offset);

async function main(): Promise<void> {
  const listed = await scimPeople();
  check(listed.length === people, `the SCIM server listed ${listed.length} of ${people} people`);
  const db = await startDynamoDbLocal({ tables: { schemas: [baselineTable], prefix: 'bench-' } });
  const metered = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 60_000 });
  const plain = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 60_000 });
  const { measure } = meterCapacity(metered);
  const store = new DynamoDbBaselineStore<RawRecord>({
    client: metered,
    tableName: TABLE,
    indexKeys: baselineIndexKeys,
  });
  const tallies: Tally[] = [];
  const run = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const { tally, value } = await measure(label, work);
    tallies.push(tally);
    return value;
  };
  const sync = (label: string, feed: ChangeFeed, fullEveryMs: number): Promise<SyncOutcome> =>
    run(label, () =>
      syncSource({ sourceId: SOURCE, store, feed, owner: 'bench', stopAt: Date.now() + HOUR, fullEveryMs }),
    );
  try {
    const provider = memoryFeed(listed, true);
    const full = await sync(`full sync, ${people} people`, provider.feed, 24 * HOUR);
    check(full.result === 'full' && full.written === people, `the full sync ended ${full.result}`);
    const held = await countRecords(plain);
    check(held === people, `the baseline holds ${held} of ${people} people after the full sync`);
    const storage = await storageOf(
      plain,
      TABLE,
      baselineTable,
      (item) => item['sk']?.S?.startsWith('R#') === true,
    );

    const changed = every(listed, 100, 1).map((r) => ({
      ...r,
      observed_at: new Date().toISOString(),
      attributes: { ...r.attributes, title: 'Director' },
    }));
    const deleted = every(listed, 1000, 2).map((r) => r.external_id);
    provider.change(changed, deleted);
    const label = `delta sync, ${changed.length} changed, ${deleted.length} deleted`;
    const delta = await sync(label, provider.feed, 24 * HOUR);
    check(
      delta.result === 'delta' && delta.removed === deleted.length,
      `the delta sync ended ${delta.result}`,
    );

    const cached = createCachedSource({
      live: { source: { source_type: 'scim', source_identity: SOURCE }, read: () => noProvider() },
      sourceId: SOURCE,
      store,
      feed: provider.feed,
      policy: { refreshMs: HOUR, maxStalenessMs: HOUR },
    });
    const read = (query: SourceQuery) =>
      runFederation({ sources: [cached], query, deadline: Date.now() + HOUR });
    await run('first baseline page alone', async () => {
      for await (const page of cached.readLayers!({ operation: 'list_people' }, readOptions()))
        if (page.layer === 'baseline') break;
    });
    const list = await run('list_people, cached', () => read({ operation: 'list_people' }));
    check(
      list.records.length === people - deleted.length,
      `a cached list read ${list.records.length} records`,
    );
    const name = listed[Math.floor(people / 2)]!.display_name!;
    const named = await run(`search_people "${name}", cached`, () =>
      read({ operation: 'search_people', query: name }),
    );
    check(named.records.length > 0, `a cached search for "${name}" found no one`);
    const family = name.split(' ').at(-1)!;
    await run(`search_people "${family}", limit 25, cached`, () =>
      read({ operation: 'search_people', query: family, limit: 25 }),
    );
    for (let i = 0; i < lookups; i++) {
      const { record_ref } = list.records[Math.floor((i * list.records.length) / lookups)]!;
      const found = await run('get_person, cached', () => read({ operation: 'get_person', record_ref }));
      check(found.records.length === 1, `get_person found ${found.records.length} records`);
    }

    const gone = new Set(every(listed, 1000, 3).map((r) => r.external_id));
    const remaining = provider.people().filter((r) => !gone.has(r.external_id));
    const daily = await sync(`daily full sync, ${gone.size} gone`, memoryFeed(remaining, false).feed, 0);
    check(
      daily.result === 'full' && daily.removed === gone.size,
      `the daily full sync ended ${daily.result}`,
    );
    await run('purge', () => store.purge(SOURCE));
    report(tallies, storage);
  } finally {
    metered.destroy();
    plain.destroy();
    await db.stop();
  }
}

// eslint-disable-next-line require-yield -- a read that never yields: the bench has no provider to fall back to
async function* noProvider(): AsyncGenerator<never> {
  await Promise.resolve();
  throw new Error('the baseline was not usable: a read went to the provider');
}

/** Lookups cost alike: one row of their mean units and median wall time. */
function perLookup(tallies: readonly Tally[]): Tally {
  const mean = (pick: (t: Tally) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const t of tallies)
      for (const [k, v] of Object.entries(pick(t))) out[k] = (out[k] ?? 0) + v / tallies.length;
    return out;
  };
  const wall = tallies.map((t) => t.wallMs).sort((a, b) => a - b);
  return {
    label: 'get_person, cached (per lookup)',
    requests: mean((t) => t.requests),
    read: mean((t) => t.read),
    write: mean((t) => t.write),
    wallMs: wall[Math.floor(wall.length / 2)] ?? NaN,
  };
}

function report(tallies: readonly Tally[], storage: Awaited<ReturnType<typeof storageOf>>): void {
  const isLookup = (t: Tally) => t.label === 'get_person, cached';
  const rows = [...tallies.filter((t) => !isLookup(t)), perLookup(tallies.filter(isLookup))];
  const places = ['table', ...(baselineTable.globalSecondaryIndexes ?? []).map((index) => index.name)];
  const cell = (n: number | undefined, width = 9) =>
    (n === undefined ? '-' : Number.isInteger(n) ? String(n) : n.toFixed(1)).padStart(width);
  const load = loadavg().map((l) => l.toFixed(2));
  console.log(
    `DynamoDB units of a ${people}-person baseline (DynamoDB Local; load average ${load.join(' ')})`,
  );
  const heads = [...places.map((p) => `RRU ${p}`), ...places.map((p) => `WRU ${p}`)];
  console.log(`${'operation'.padEnd(44)} requests ${heads.map((h) => h.padStart(11)).join(' ')}  wall ms`);
  for (const t of rows) {
    const units = [...places.map((p) => t.read[p]), ...places.map((p) => t.write[p])];
    const line = [t.label.padEnd(44), cell(total(t.requests), 8), ...units.map((u) => cell(u, 11))];
    console.log(`${line.join(' ')} ${t.wallMs.toFixed(0).padStart(8)}`);
  }
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const where = Object.entries(storage.bytes).map(([place, bytes]) => `${place} ${mb(bytes)}`);
  console.log(
    `storage of ${storage.items} record items, by the item-size rules: ${where.join(', ')}; total ` +
      `${mb(storage.totalBytes)}, ${(storage.totalBytes / storage.items).toFixed(0)} bytes per person ` +
      `(an item alone: ${storage.averageItemBytes.toFixed(0)} bytes)`,
  );
  console.log(`DescribeTable (DynamoDB Local): ${JSON.stringify(storage.describeTable)}`);
  console.log(
    `by the same rules: putting every record costs ${storage.putUnits} WRU; reading every record once ` +
      `(eventually consistent) ${storage.readAllUnits.toFixed(1)} RRU`,
  );
  console.log(
    JSON.stringify({ bench: 'baseline-units', people, lookups, load_average: loadavg(), rows, storage }),
  );
}

await main();
