/**
 * The two sides of a source-cache oracle: what a source's baseline holds, and what a fresh live listing of the
 * same adapter reads, put in one order. Where a provider gives each record its change time (SCIM, LDAP, Okta)
 * the records must agree whole ({@link inIdOrder}); where `observed_at` is the time of the read (Graph), in
 * everything else ({@link byId}).
 */
import assert from 'node:assert/strict';
import { createDynamoDbClient, DynamoDbBaselineStore } from '../../lambda/aws/index.js';
import { runFederation } from '../../lambda/federation/index.js';
import type {
  FederatedRecord,
  FederationResult,
  RawRecord,
  SourceAdapter,
  SourceQuery,
} from '../../lambda/federation/index.js';
import { baselineIndexKeys } from '../../lambda/handlers/compose-baseline.js';
import { createCachedSource } from '../../lambda/sources/cache/cached-source.js';
import { changeFeedFor, kindMatchFor, syncSource } from '../../lambda/sources/cache/index.js';
import type { BaselineStore, ChangeFeed, SyncOutcome } from '../../lambda/sources/cache/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import type { SourceSpec } from '../../lambda/sources/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../lambda/sources/scim/index.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { ProviderPerson } from '../../local/providers/population.js';
import type { ScimServer } from '../../local/providers/scim/index.js';

/** A record without the time it was read: what a baseline and a live read must agree on. */
export const content = ({ observed_at: _observed, ...rest }: RawRecord): Omit<RawRecord, 'observed_at'> =>
  rest;

/** Records by `external_id`. */
export const inIdOrder = (records: readonly RawRecord[]): RawRecord[] =>
  [...records].sort((a, b) => a.external_id.localeCompare(b.external_id));

/** Records by `external_id`, without their read time. */
export const byId = (records: readonly RawRecord[]): Omit<RawRecord, 'observed_at'>[] =>
  inIdOrder(records).map(content);

/** Every record of `sourceId`'s baseline. */
export async function baselineRecords(store: BaselineStore, sourceId: string): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const page of store.readPages(sourceId, 100, new AbortController().signal)) out.push(...page);
  return out;
}

/** A fresh `list_people` of `adapter`, straight from its provider. */
export async function liveListing(adapter: SourceAdapter): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  const options = { signal: new AbortController().signal, deadline: Date.now() + 30_000 };
  for await (const page of adapter.read({ operation: 'list_people' }, options)) out.push(...page);
  return out;
}

/** A baseline store on its own table in a fresh DynamoDB Local. */
export interface LocalBaseline {
  readonly store: BaselineStore;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local with the baseline table (named with `prefix`) and the store on it. */
export async function startLocalBaseline(prefix: string): Promise<LocalBaseline> {
  const db = await startDynamoDbLocal({ tables: { schemas: [baselineTable], prefix } });
  const client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 10_000 });
  const store = new DynamoDbBaselineStore<RawRecord>({
    client,
    tableName: `${prefix}${baselineTable.id}`,
    indexKeys: baselineIndexKeys,
  });
  return {
    store,
    async stop() {
      client.destroy();
      await db.stop();
    },
  };
}

/** One read of `source` alone through the federation engine, as a call would run it. */
export const federatedRead = (source: SourceAdapter, query: SourceQuery): Promise<FederationResult> =>
  runFederation({ sources: [source], query, deadline: Date.now() + 30_000, clock: () => 0 });

/**
/**
 * A final result's people without the times their provenance entries were read: where `observed_at` is the
 * time of a read (Graph), a cached and a live answer agree on everything else.
 */
export const withoutReadTimes = (records: readonly FederatedRecord[]) =>
  records.map((record) => ({
    ...record,
    sources: record.sources.map(({ observed_at: _at, ...rest }) => rest),
  }));

/** The external ids of a final result's people, sorted. */
export const idsOf = (records: readonly FederatedRecord[]): string[] =>
  records.flatMap((record) => record.sources.map((source) => source.external_id)).sort();

/** A `search_people` query for each text. */
export const searches = (texts: readonly string[]): SourceQuery[] =>
  texts.map((query) => ({ operation: 'search_people', query }));

/**
 * Asserts that each of `queries` read through `cached` (baseline, then the delta) gives exactly the people a
 * live read of `live` gives, with the same content, and says it applied the delta: whole records, or without
 * their read times where `observed_at` is the time of a read (`readTimes: false`, Graph).
 */
export async function assertReadsAsLive(
  cached: SourceAdapter,
  live: SourceAdapter,
  queries: readonly SourceQuery[],
  options: { readonly readTimes?: boolean } = {},
): Promise<void> {
  const comparable = (records: readonly FederatedRecord[]) =>
    options.readTimes === false ? withoutReadTimes(records) : records;
  for (const query of queries) {
    const [fromCache, fromProvider] = [await federatedRead(cached, query), await federatedRead(live, query)];
    const what = JSON.stringify(query);
    assert.deepEqual(idsOf(fromCache.records), idsOf(fromProvider.records), what);
    assert.deepEqual(comparable(fromCache.records), comparable(fromProvider.records), what);
    assert.equal(fromCache.metadata.retrieval_mode, 'cache_baseline_with_delta', what);
    assert.equal(fromCache.metadata.source_delta_applied, true, what);
  }
}

/** One sync of `sourceId` from `feed`, with a full read due once the last is `fullEveryMs` old (0: now). */
export const syncOnce = (
  sourceId: string,
  store: BaselineStore,
  feed: ChangeFeed,
  fullEveryMs: number,
): Promise<SyncOutcome> =>
  syncSource({ sourceId, store, feed, owner: 'oracle', stopAt: Date.now() + 60_000, fullEveryMs });

/** The `scim` adapter of source `acme-scim` on a local SCIM server, as the function would build it. */
export function localScimSource(scim: ScimServer): SourceAdapter {
  const spec: SourceSpec = {
    source_id: 'acme-scim',
    adapter: 'scim',
    options: { base_url: scim.baseUrl, page_size: 50 },
    credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(scim.token) },
  };
  return createScimSource(spec, scimOptionsFromSpec(spec, true), { allowLoopbackHttp: true });
}

/** A person with diacritics in both names, for a replay to serve beside its seeded people. */
export const ZOE_MULLER: ProviderPerson = {
  id: 'u800001',
  userName: 'zoe.muller@example.com',
  givenName: 'Zoë',
  familyName: 'Müller',
  displayName: 'Zoë Müller',
  email: 'zoe.muller@example.com',
  phone: '+15550100001',
  title: 'Engineer',
  department: 'Legal',
  active: true,
  lastModified: '2026-10-01T10:00:00Z',
};

/**
 * `live` cached on `store` as the composition root builds it: the kind's own change feed and search match, a
 * baseline usable for an hour.
 */
export function cachedAsComposed(
  spec: SourceSpec,
  live: SourceAdapter,
  store: BaselineStore,
): { cached: SourceAdapter; feed: ChangeFeed } {
  const feed = changeFeedFor(spec, live);
  assert.ok(feed, `the ${spec.adapter} kind has a change feed`);
  const match = kindMatchFor(spec.adapter);
  const cached = createCachedSource({
    live,
    sourceId: spec.source_id,
    store,
    feed,
    ...(match === undefined ? {} : { match }),
    policy: { refreshMs: 3_600_000, maxStalenessMs: 3_600_000 },
  });
  return { cached, feed };
}
