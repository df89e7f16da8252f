/**
 * The source cache's baseline store against DynamoDB Local (real Java process, no mocks): records paged in a
 * stable order by Query, keyed lookups by record ref, email and phone through the sparse indexes (scoped to one
 * source), the sync-state item and its lease, the sweep after a full sync, and a purge.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, DynamoDbBaselineStore } from '../../lambda/aws/index.js';
import type { RawRecord } from '../../lambda/federation/index.js';
import { normaliseEmail, singleKeyRecordRef } from '../../lambda/federation/index.js';
import { baselineIndexKeys } from '../../lambda/handlers/compose-baseline.js';
import type { BaselineStore } from '../../lambda/sources/cache/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { needsJava } from '../helpers/java.js';

const PREFIX = 'it-';

function person(id: number, overrides: Partial<RawRecord> = {}): RawRecord {
  return {
    source_type: 'directory',
    source_identity: 'acme-scim',
    external_id: `u-${String(id).padStart(4, '0')}`,
    record_type: 'person',
    observed_at: '2026-12-06T10:00:00.000Z',
    capabilities: ['read'],
    display_name: `Person ${id}`,
    email: `Person.${id}@Acme.Example`,
    phone: `+44 20 7946 ${String(id).padStart(4, '0')}`,
    ...overrides,
  };
}

async function all(
  store: BaselineStore,
  sourceId: string,
  pageSize = 100,
  firstPageSize?: number,
): Promise<RawRecord[][]> {
  const pages: RawRecord[][] = [];
  const signal = new AbortController().signal;
  for await (const page of store.readPages(sourceId, pageSize, signal, firstPageSize)) pages.push([...page]);
  return pages;
}

describe('DynamoDbBaselineStore on DynamoDB Local', { timeout: 180_000 }, () => {
  const skipReason = needsJava() || undefined;
  let db: DynamoDbLocal | undefined;
  let client: DynamoDBClient;
  let store: BaselineStore;
  let clock = 1_000_000;
  let run = 0;
  let source = '';

  before(async () => {
    if (skipReason !== undefined) return;
    db = await startDynamoDbLocal({ tables: { schemas: [baselineTable], prefix: PREFIX } });
    client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 10_000 });
    store = new DynamoDbBaselineStore<RawRecord>({
      client,
      tableName: `${PREFIX}${baselineTable.id}`,
      indexKeys: baselineIndexKeys,
      now: () => clock,
    });
  });

  after(async () => {
    client?.destroy();
    await db?.stop();
  });

  beforeEach(() => {
    run += 1;
    source = `acme-scim-${run}`;
  });

  it(
    'pages a source’s records in external-id order, at most pageSize each',
    { skip: skipReason },
    async () => {
      // Prepare: written out of order, in more than one batch of 25
      const records = Array.from({ length: 60 }, (_, i) => person(60 - i));
      await store.put(source, records);
      // Act
      const pages = await all(store, source, 25);
      // Assess
      assert.deepEqual(
        pages.map((p) => p.length),
        [25, 25, 10],
      );
      assert.deepEqual(
        pages.flat().map((r) => r.external_id),
        records.map((r) => r.external_id).sort(),
      );
      assert.deepEqual(pages.flat()[0], person(1));
    },
  );

  it('reads a smaller first page when asked, then pages of pageSize', { skip: skipReason }, async () => {
    // Prepare
    const records = Array.from({ length: 60 }, (_, i) => person(i + 1));
    await store.put(source, records);
    // Act
    const pages = await all(store, source, 25, 10);
    // Assess: every record once, in order, whole (the projection keeps the record itself)
    assert.deepEqual(
      pages.map((p) => p.length),
      [10, 25, 25],
    );
    assert.deepEqual(pages.flat(), records);
  });

  it(
    'finds a record by its own record ref, normalised email or phone, within its source only',
    { skip: skipReason },
    async () => {
      // Prepare: the same person in another source
      const other = `${source}-other`;
      await store.put(source, [person(1), person(2)]);
      await store.put(other, [person(1, { source_identity: other })]);
      const ref = singleKeyRecordRef(person(2));
      // Act / Assess
      assert.deepEqual(
        (await store.lookup(source, { recordRef: ref })).map((r) => r.external_id),
        ['u-0002'],
      );
      const email = normaliseEmail('  person.1@acme.example ') ?? '';
      assert.deepEqual(
        (await store.lookup(source, { email })).map((r) => r.source_identity),
        ['acme-scim'],
      );
      assert.deepEqual(
        (await store.lookup(source, { phone: '+442079460002' })).map((r) => r.external_id),
        ['u-0002'],
      );
      assert.deepEqual(await store.lookup(source, { email: 'nobody@acme.example' }), []);
    },
  );

  it(
    'drops an updated record’s old email from the index (a replaced item leaves the sparse index)',
    { skip: skipReason },
    async () => {
      await store.put(source, [person(3)]);
      await store.put(source, [person(3, { email: 'new.three@acme.example', phone: null })]);
      assert.deepEqual(await store.lookup(source, { email: 'person.3@acme.example' }), []);
      assert.deepEqual(await store.lookup(source, { phone: '+442079460003' }), []);
      assert.equal((await store.lookup(source, { email: 'new.three@acme.example' })).length, 1);
    },
  );

  it('removes records by external id and ignores unknown ids', { skip: skipReason }, async () => {
    await store.put(source, [person(1), person(2), person(3)]);
    await store.remove(source, ['u-0002', 'u-9999']);
    assert.deepEqual(
      (await all(store, source)).flat().map((r) => r.external_id),
      ['u-0001', 'u-0003'],
    );
  });

  it('sweeps what the full sync did not see, and counts it', { skip: skipReason }, async () => {
    // Prepare: an older baseline, then a full sync that sees only 1 and 3 (and a delta-written 4 before it)
    await store.put(source, [person(1), person(2), person(4)], 'sync-a');
    await store.put(source, [person(1), person(3)], 'sync-b');
    // Act
    const removed = await store.sweep(source, 'sync-b');
    // Assess
    assert.equal(removed, 2);
    assert.deepEqual(
      (await all(store, source)).flat().map((r) => r.external_id),
      ['u-0001', 'u-0003'],
    );
  });

  it('keeps the sync state apart from the records, and writes it whole', { skip: skipReason }, async () => {
    assert.equal(await store.readState(source), undefined);
    await store.writeState({
      sourceId: source,
      status: 'syncing',
      recordCount: 0,
      checkpoint: 'page-2',
      watermark: 'w1',
    });
    await store.writeState({ sourceId: source, status: 'ready', recordCount: 2, watermark: 'w2' });
    assert.deepEqual(await store.readState(source), {
      sourceId: source,
      status: 'ready',
      recordCount: 2,
      watermark: 'w2',
    });
    assert.deepEqual(await all(store, source), []);
  });

  it(
    'gives the lease to one worker at a time until it is released or expires',
    { skip: skipReason },
    async () => {
      const first = await store.acquireLease(source, 'worker-a', 60_000);
      assert.deepEqual(first, { sourceId: source, owner: 'worker-a', expiresAt: clock + 60_000 });
      assert.equal(await store.acquireLease(source, 'worker-b', 60_000), undefined);
      // Writing the state does not drop the lease.
      await store.writeState({ sourceId: source, status: 'syncing', recordCount: 0 });
      assert.equal(await store.acquireLease(source, 'worker-b', 60_000), undefined);
      await store.releaseLease(first);
      const second = await store.acquireLease(source, 'worker-b', 60_000);
      assert.equal(second?.owner, 'worker-b');
      // worker-b dies; after its lease expires worker-c takes over, and worker-b's late release changes nothing.
      clock += 60_001;
      const third = await store.acquireLease(source, 'worker-c', 60_000);
      assert.equal(third?.owner, 'worker-c');
      await store.releaseLease(second);
      assert.equal(await store.acquireLease(source, 'worker-d', 60_000), undefined);
      assert.equal((await store.readState(source))?.status, 'syncing');
    },
  );

  it('purges every item of a source and nothing of another', { skip: skipReason }, async () => {
    const other = `${source}-kept`;
    await store.put(source, [person(1), person(2)]);
    await store.writeState({ sourceId: source, status: 'ready', recordCount: 2 });
    await store.put(other, [person(1)]);
    await store.writeState({ sourceId: other, status: 'ready', recordCount: 1 });
    assert.ok((await store.sourceIds()).includes(source));
    await store.purge(source);
    assert.ok(!(await store.sourceIds()).includes(source));
    assert.ok((await store.sourceIds()).includes(other));
    assert.equal(await store.readState(source), undefined);
    assert.deepEqual(await all(store, source), []);
    assert.deepEqual(await store.lookup(source, { email: 'person.1@acme.example' }), []);
    assert.equal((await all(store, other)).flat().length, 1);
  });
});
