/**
 * The sync's guarantees on the real baseline store (DynamoDB Local), where a lease is a conditional write and
 * a sweep a strongly consistent Query: two syncs of one source started together (one proceeds, the other is
 * told `busy`); a full sync cut off at its deadline and resumed from its checkpoint (the same baseline and
 * state as an uninterrupted one); and a scheduled run that purges the baseline of a source the directory no
 * longer has.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, DynamoDbBaselineStore } from '../../lambda/aws/index.js';
import type { RawRecord, SourceAdapter } from '../../lambda/federation/index.js';
import { baselineIndexKeys } from '../../lambda/handlers/compose-baseline.js';
import { adapterChangeFeed, runSyncs, syncSource } from '../../lambda/sources/cache/index.js';
import type { BaselineStore, SyncSourceOptions } from '../../lambda/sources/cache/index.js';
import { createFixtureSource } from '../../lambda/sources/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { javaSuite } from '../helpers/java.js';

const PREFIX = 'it-sync-ddb-';

function person(id: number): RawRecord {
  return {
    source_type: 'directory',
    source_identity: 'people',
    external_id: `u-${String(id).padStart(3, '0')}`,
    record_type: 'person',
    observed_at: '2026-12-06T10:00:00.000Z',
    capabilities: ['read'],
    display_name: `Person ${id}`,
    email: `person.${id}@acme.example`,
  };
}

/**
 * A provider of `count` people in pages of 10. With `hold.at`, the read waits before that page until the
 * sync's own deadline aborts it (a read cut off midway), or, with `hold.gate`, until the gate opens.
 */
function provider(count: number, hold: { at?: number; gate?: Promise<void> } = {}): SourceAdapter {
  const people = Array.from({ length: count }, (_, i) => person(i + 1));
  return {
    source: { source_type: 'directory', source_identity: 'people' },
    async *read(_query, { signal }) {
      for (let at = 0, page = 1; at < people.length; at += 10, page += 1) {
        if (page === hold.at)
          await (hold.gate ??
            new Promise((_, reject) =>
              signal.addEventListener('abort', () => reject(signal.reason as Error)),
            ));
        signal.throwIfAborted();
        yield people.slice(at, at + 10);
      }
    },
  };
}

async function records(store: BaselineStore, sourceId: string): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const page of store.readPages(sourceId, 100, new AbortController().signal)) out.push(...page);
  return out;
}

describe('the sync on DynamoDB Local', javaSuite(180_000), () => {
  let db: DynamoDbLocal | undefined;
  let client: DynamoDBClient;
  let store: BaselineStore;

  before(async () => {
    db = await startDynamoDbLocal({ tables: { schemas: [baselineTable], prefix: PREFIX } });
    client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 10_000 });
    store = new DynamoDbBaselineStore<RawRecord>({
      client,
      tableName: `${PREFIX}${baselineTable.id}`,
      indexKeys: baselineIndexKeys,
    });
  });

  after(async () => {
    client?.destroy();
    await db?.stop();
  });

  const options = (sourceId: string, adapter: SourceAdapter, owner: string): SyncSourceOptions => ({
    sourceId,
    store,
    feed: adapterChangeFeed(adapter),
    owner,
    stopAt: Date.now() + 60_000,
    fullEveryMs: 86_400_000,
  });

  it('lets one of two syncs of a source started together proceed, and tells the other it is busy', async () => {
    // Prepare: a read that waits before its second page until the gate opens
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held = provider(30, { at: 2, gate });
    // Act: both ask for the lease at once; the holder waits at the gate, so the first to finish is the other
    const syncs = [
      syncSource(options('together', held, 'worker-a')),
      syncSource(options('together', held, 'worker-b')),
    ];
    let bound: NodeJS.Timeout | undefined;
    const first = await Promise.race([
      ...syncs.map((sync) => sync.then((outcome) => outcome.result)),
      // Only a bound on a failure (both holding the lease would leave both waiting at the gate).
      new Promise<string>((resolve) => (bound = setTimeout(() => resolve('both hold the lease'), 20_000))),
    ]);
    clearTimeout(bound);
    open();
    const outcomes = await Promise.all(syncs);
    // Assess
    assert.equal(first, 'busy');
    assert.deepEqual(outcomes.map((o) => o.result).sort(), ['busy', 'full']);
    assert.equal((await records(store, 'together')).length, 30);
    assert.equal((await store.readState('together'))?.recordCount, 30);
    // The lease was released: a later sync proceeds.
    assert.equal((await syncSource(options('together', provider(30), 'worker-c'))).result, 'delta');
  });

  it('resumes a full sync cut off at its deadline to the same baseline and state as an uninterrupted one', async () => {
    // Act: the first run stops at its deadline while its read waits before page 5; the next run continues
    const first = await syncSource({
      ...options('resumed', provider(95, { at: 5 }), 'worker-1'),
      stopAt: Date.now() + 1_000,
    });
    const between = await store.readState('resumed');
    const second = await syncSource(options('resumed', provider(95), 'worker-2'));
    await syncSource(options('plain', provider(95), 'worker-3'));
    // Assess
    assert.deepEqual([first.result, first.written], ['paused', 40]);
    assert.equal(between?.status, 'syncing');
    assert.notEqual(between?.checkpoint, undefined);
    assert.deepEqual([second.result, second.written], ['full', 55]);
    assert.deepEqual(await records(store, 'resumed'), await records(store, 'plain'));
    const [resumed, plain] = [await store.readState('resumed'), await store.readState('plain')];
    const comparable = (state: typeof resumed) => ({
      ...state,
      sourceId: '',
      lastFullSyncAt: '',
      lastDeltaSyncAt: '',
    });
    assert.deepEqual(comparable(resumed), comparable(plain));
    assert.equal(resumed?.recordCount, 95);
    assert.equal(resumed?.checkpoint, undefined);
  });

  it('purges, on a scheduled run, the baseline of a source the directory no longer caches', async () => {
    // Prepare: baselines of `kept` and `removed`
    const fixture = (id: string) =>
      createFixtureSource({ source_type: 'hr', source_identity: id, recordCount: 12 });
    const spec = (id: string, cached: boolean) => ({
      source_id: id,
      adapter: 'fixture',
      options: {},
      ...(cached ? { cache: { refreshMs: 60_000, maxStalenessMs: 600_000 } } : {}),
    });
    const run = (sources: Parameters<typeof runSyncs>[0]['sources']) =>
      runSyncs({ sources, store, owner: 'scheduler', stopAt: Date.now() + 60_000 });
    await run([
      { spec: spec('kept', true), adapter: fixture('kept') },
      { spec: spec('removed', true), adapter: fixture('removed') },
    ]);
    assert.equal((await records(store, 'removed')).length, 12);
    // Act: `removed` has left the directory (and `uncached` has its cache turned off)
    const result = await run([
      { spec: spec('kept', true), adapter: fixture('kept') },
      { spec: spec('uncached', false), adapter: fixture('uncached') },
    ]);
    // Assess: every item of `removed` is gone, its registry entry too; `kept` is untouched
    assert.ok(result.purged.includes('removed'));
    assert.deepEqual(await records(store, 'removed'), []);
    assert.equal(await store.readState('removed'), undefined);
    assert.ok(!(await store.sourceIds()).includes('removed'));
    assert.equal((await records(store, 'kept')).length, 12);
  });
});
