/**
 * DynamoDbTaskStore against DynamoDB Local (real Java process, no mocks): item layout, compare-and-swap,
 * the owner binding, a 5 MB record round-tripping byte-identical through chunk items, and an outage.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, DynamoDbTaskStore, StoreRequestError } from '../../lambda/aws/index.js';
import { ROUND_SETTLE_MS, TaskExistsError, TaskStoreUnavailableError } from '../../lambda/mcp/index.js';
import type { TaskRecord } from '../../lambda/mcp/index.js';
import { tasksTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';

const PREFIX = 'it-';
const TABLE = `${PREFIX}${tasksTable.id}`;

function javaAvailable(): boolean {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function task(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    owner: 'p#owner-a',
    taskId: randomBytes(16).toString('hex'),
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 600_000,
    expiresAt: now + 600_000,
    deadline: now + 60_000,
    pollIntervalMs: 1000,
    version: 0,
    call: {
      tool: 'bos_execute',
      arguments: { operation: 'people.search' },
      shape: 'stateless',
      protocolVersion: '2026-07-28',
      clientCapabilities: {},
      meta: {},
    },
    ...overrides,
  };
}

describe('DynamoDbTaskStore on DynamoDB Local', { timeout: 180_000 }, () => {
  const skipReason = javaAvailable() ? undefined : 'java is not installed (DynamoDB Local needs Java 17)';
  let db: DynamoDbLocal | undefined;
  let client: DynamoDBClient;
  let store: DynamoDbTaskStore;
  let dataDir: string | undefined;

  before(async () => {
    if (skipReason !== undefined) return;
    // On disk, so the data survives restart() like a real outage-and-recovery.
    dataDir = mkdtempSync(join(tmpdir(), 'bos-mcp-tasks-'));
    db = await startDynamoDbLocal({ dataDir, tables: { schemas: [tasksTable], prefix: PREFIX } });
    // Generous: DynamoDB Local on a shared 2-core machine is slow with 350 KB items.
    client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 30_000 });
    store = new DynamoDbTaskStore({ client, tableName: TABLE });
  });

  after(async () => {
    client?.destroy();
    await db?.stop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a task under its owner with the TTL attribute in epoch seconds', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const record = task();
    await store.create(record);
    assert.deepEqual(await store.get(record.owner, record.taskId), record);
    const raw = await client.send(
      new GetItemCommand({
        TableName: TABLE,
        Key: { sessionId: { S: record.owner }, taskId: { S: record.taskId } },
      }),
    );
    assert.equal(raw.Item?.expiresAt?.N, String(Math.ceil(record.expiresAt / 1000)));
    assert.equal(raw.Item?.status?.S, 'working');
    assert.equal(await store.get('p#owner-b', record.taskId), undefined);
    await assert.rejects(store.create(record), TaskExistsError);
  });

  it('a key DynamoDB refuses is a client fault, not an outage, and its message carries no DynamoDB text', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // A sort key over 1,024 bytes: DynamoDB answers ValidationException (a client fault).
    await assert.rejects(store.get('p#owner-a', 'a'.repeat(1025)), (error) => {
      assert.ok(!(error instanceof TaskStoreUnavailableError), String(error));
      assert.ok(error instanceof StoreRequestError, String(error));
      assert.equal(error.message, 'task store refused the request (ValidationException)');
      return true;
    });
  });

  it('replaces only at the expected version and counts active tasks per owner', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const owner = 'p#counted';
    const record = task({ owner });
    await store.create(record);
    await store.create(task({ owner, status: 'completed' }));
    // Expired, its round long over (a round never outlives its task's TTL).
    const over = Date.now() - ROUND_SETTLE_MS - 1000;
    await store.create(task({ owner, expiresAt: over, deadline: over }));
    assert.equal(await store.countActive(owner, Date.now()), 1);
    assert.equal(await store.replace({ ...record, status: 'cancelled' }, 0), true);
    assert.equal(await store.replace({ ...record, status: 'completed' }, 0), false);
    const stored = await store.get(owner, record.taskId);
    assert.equal(stored?.status, 'cancelled');
    assert.equal(stored?.version, 1);
    assert.equal(await store.countActive(owner, Date.now()), 0);
  });

  it('counts a working task whose round may still run, expired or not, and nothing past its settle time', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const now = Date.now();
    // Expired, but its round's deadline was just now: the round may still be stopping.
    await store.create(task({ owner: 'p#stopping', expiresAt: now - 1000, deadline: now - 1000 }));
    assert.equal(await store.countActive('p#stopping', now), 1);
    // Working, unexpired, round deadline long past: its worker died; it reads as failed.
    await store.create(task({ owner: 'p#dead', deadline: now - ROUND_SETTLE_MS - 1000 }));
    assert.equal(await store.countActive('p#dead', now), 0);
    // Waiting for input: counted until it expires.
    await store.create(task({ owner: 'p#input', status: 'input_required', expiresAt: now - 1000 }));
    await store.create(task({ owner: 'p#input', status: 'input_required' }));
    assert.equal(await store.countActive('p#input', now), 1);
  });

  it('round-trips a 5 MB result byte-identical through chunk items, and replaces it', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Multi-byte characters straddle chunk boundaries: the split is by bytes, the join must be too.
    const unit = 'é€😀 records; ';
    const text = unit.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(unit)));
    assert.ok(Buffer.byteLength(text) >= 5 * 1024 * 1024);
    const record = task();
    await store.create(record);
    const result = { content: [{ type: 'text', text }], isError: false };
    assert.equal(await store.replace({ ...record, status: 'completed', result }, 0), true);
    const read = await store.get(record.owner, record.taskId);
    assert.equal(read?.status, 'completed');
    const back = read?.result?.content as { text: string }[];
    assert.ok(Buffer.from(back[0]?.text ?? '', 'utf8').equals(Buffer.from(text, 'utf8')));
    const raw = await client.send(
      new GetItemCommand({
        TableName: TABLE,
        Key: { sessionId: { S: record.owner }, taskId: { S: record.taskId } },
      }),
    );
    const chunks = Number(raw.Item?.bodyChunks?.N);
    assert.ok(chunks >= 15, `expected the body in chunks, got ${chunks}`);
    // A smaller replacement goes inline again and the superseded chunk set is deleted.
    assert.ok(read !== undefined);
    assert.equal(await store.replace({ ...read, result: { content: [] } }, 1), true);
    const left = await client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'sessionId = :p',
        ExpressionAttributeValues: { ':p': { S: `chunk#${record.taskId}#${raw.Item?.bodyId?.S ?? ''}` } },
      }),
    );
    assert.equal(left.Count, 0);
    assert.deepEqual((await store.get(record.owner, record.taskId))?.result, { content: [] });
  });

  it('lists an owner’s tasks in pages', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const owner = 'p#lister';
    for (let i = 0; i < 3; i += 1) await store.create(task({ owner }));
    const first = await store.list(owner, 2);
    assert.equal(first.records.length, 2);
    assert.ok(first.nextCursor);
    const second = await store.list(owner, 2, first.nextCursor);
    assert.equal(second.records.length, 1);
    const ids = new Set([...first.records, ...second.records].map((r) => r.taskId));
    assert.equal(ids.size, 3);
  });

  it('reports an outage as TaskStoreUnavailableError and finds the data again once it is back', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const record = task();
    await store.create(record);
    const fast = new DynamoDbTaskStore({
      client: createDynamoDbClient({ endpoint: db!.endpoint, maxAttempts: 1, requestTimeoutMs: 500 }),
      tableName: TABLE,
    });
    await db!.stop();
    await assert.rejects(fast.get(record.owner, record.taskId), TaskStoreUnavailableError);
    await assert.rejects(fast.create(task()), TaskStoreUnavailableError);
    await db!.restart();
    assert.deepEqual(await store.get(record.owner, record.taskId), record);
  });
});
