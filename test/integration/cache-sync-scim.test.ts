/**
 * Delta correctness of the source cache against the real local SCIM server and DynamoDB Local (no mocks): a
 * full sync, then people added, changed and deleted at the provider, then a delta sync, then the periodic full
 * sync; the baseline is compared with a fresh live listing of the same adapter (the oracle).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, DynamoDbBaselineStore } from '../../lambda/aws/index.js';
import type { RawRecord, SourceAdapter } from '../../lambda/federation/index.js';
import { baselineIndexKeys } from '../../lambda/handlers/compose-baseline.js';
import { adapterChangeFeed, syncSource } from '../../lambda/sources/cache/index.js';
import type { BaselineStore } from '../../lambda/sources/cache/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../lambda/sources/scim/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { startScimServer } from '../../local/providers/scim/index.js';
import type { ScimServer } from '../../local/providers/scim/index.js';
import { baselineRecords, inIdOrder, liveListing } from '../helpers/cache-oracle.js';
import { javaSuite } from '../helpers/java.js';

const PREFIX = 'it-sync-';

const nowSecond = (): string =>
  new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

describe('the source cache against the local SCIM server', javaSuite(240_000), () => {
  let db: DynamoDbLocal;
  let client: DynamoDBClient;
  let scim: ScimServer;
  let store: BaselineStore;
  let adapter: SourceAdapter;

  before(async () => {
    [db, scim] = await Promise.all([
      startDynamoDbLocal({ tables: { schemas: [baselineTable], prefix: PREFIX } }),
      startScimServer({ population: { name: 'acme-scim', size: 120, overlap: 0 } }),
    ]);
    client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 10_000 });
    store = new DynamoDbBaselineStore<RawRecord>({
      client,
      tableName: `${PREFIX}${baselineTable.id}`,
      indexKeys: baselineIndexKeys,
    });
    const spec: SourceSpec = {
      source_id: 'acme-scim',
      adapter: 'scim',
      options: { base_url: scim.baseUrl, page_size: 50 },
      credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(scim.token) },
    };
    adapter = createScimSource(spec, scimOptionsFromSpec(spec, true), { allowLoopbackHttp: true });
  });

  after(async () => {
    client?.destroy();
    await Promise.all([db?.stop(), scim?.close()]);
  });

  const sync = (fullEveryMs: number) =>
    syncSource({
      sourceId: 'acme-scim',
      store,
      feed: adapterChangeFeed(adapter),
      owner: 'it-worker',
      stopAt: Date.now() + 60_000,
      fullEveryMs,
    });

  it('keeps the baseline equal to a live listing through adds, changes and deletes', async () => {
    // Act: the first sync is a full read
    const full = await sync(86_400_000);
    // Assess
    assert.equal(full.result, 'full');
    assert.equal(full.written, 120);
    assert.deepEqual(
      inIdOrder(await baselineRecords(store, 'acme-scim')),
      inIdOrder(await liveListing(adapter)),
    );

    // Prepare: at the provider, one person added, one changed, one deleted
    const [first, second, third] = scim.people;
    assert.ok(first && second && third);
    scim.upsert({
      ...first,
      id: 'u900001',
      userName: 'new.hire',
      email: 'new.hire@acme.example',
      lastModified: nowSecond(),
    });
    scim.upsert({ ...second, displayName: 'Changed Name', lastModified: nowSecond() });
    scim.remove(third.id);
    const requestsBefore = scim.requests.length;

    // Act: a delta
    const delta = await sync(86_400_000);
    // Assess: the provider was asked only for what changed, and the baseline has the add and the change
    assert.equal(delta.result, 'delta');
    // The two changes, plus whoever shares the watermark's instant (`ge` reads it again): never the directory.
    assert.ok(delta.written >= 2 && delta.written <= 5, String(delta.written));
    const asked = scim.requests.slice(requestsBefore).map((r) => r.query['filter']);
    assert.ok(
      asked.every((f) => typeof f === 'string' && f.startsWith('meta.lastModified ge ')),
      JSON.stringify(asked),
    );
    const afterDelta = inIdOrder(await baselineRecords(store, 'acme-scim'));
    const oracle = inIdOrder(await liveListing(adapter));
    // SCIM reports no deletions: until the next full sync the deleted person is still there, and only it.
    assert.deepEqual(
      afterDelta.filter((r) => r.external_id !== third.id),
      oracle,
    );
    assert.ok(
      afterDelta.some((r) => r.external_id === third.id),
      'the deleted person waits for the full sync',
    );

    // Act: the periodic full sync (due at once here) sweeps the deletion
    const periodic = await sync(0);
    // Assess
    assert.equal(periodic.result, 'full');
    assert.equal(periodic.removed, 1);
    assert.deepEqual(
      inIdOrder(await baselineRecords(store, 'acme-scim')),
      inIdOrder(await liveListing(adapter)),
    );
    assert.equal((await store.readState('acme-scim'))?.recordCount, 120);
  });
});
