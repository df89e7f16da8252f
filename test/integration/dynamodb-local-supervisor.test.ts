/**
 * The local stack's DynamoDB Local is supervised: when the Java process dies on its own, the death is
 * reported and the process is started again on the same port; kept on disk, the data survives.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../../lambda/aws/index.js';
import { tableSchemas } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal, DynamoDbLocalEvent } from '../../local/dynamodb-local.js';
import { javaSuite } from '../helpers/java.js';

const sessions = tableSchemas.find(
  (schema) => schema.partitionKey.name === 'sessionId' && schema.sortKey === undefined,
);

describe('supervised DynamoDB Local', javaSuite(120_000), () => {
  let db: DynamoDbLocal;
  let dataDir: string;
  const events: DynamoDbLocalEvent[] = [];
  let restarted: Promise<void>;

  before(async () => {
    assert.ok(sessions !== undefined);
    dataDir = await mkdtemp(join(tmpdir(), 'bos-mcp-supervisor-'));
    let signal: () => void = () => undefined;
    restarted = new Promise((resolve) => (signal = resolve));
    db = await startDynamoDbLocal({
      dataDir,
      supervise: true,
      tables: { schemas: [sessions], prefix: 't-' },
      onEvent: (event) => {
        events.push(event);
        if (event.kind === 'restarted') signal();
      },
    });
  });

  after(async () => {
    await db?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports a killed process, starts it again on the same port, and keeps the data on disk', async () => {
    // Prepare
    const client = createDynamoDbClient({ endpoint: db.endpoint, maxAttempts: 1 });
    const TableName = `t-${sessions?.id ?? ''}`;
    const Key = { sessionId: { S: 'survivor' } };
    await client.send(new PutItemCommand({ TableName, Item: { ...Key, createdAt: { N: '1' } } }));
    const pid = db.pid;
    assert.ok(pid !== undefined);
    // Act: the process dies without stop() (as an OOM kill would).
    process.kill(pid, 'SIGKILL');
    await restarted;
    // Assess
    assert.equal(events[0]?.kind, 'died');
    assert.equal(events[0]?.kind === 'died' ? events[0].signal : undefined, 'SIGKILL');
    assert.notEqual(db.pid, pid);
    const item = await client.send(new GetItemCommand({ TableName, Key }));
    assert.equal(item.Item?.sessionId?.S, 'survivor');
    client.destroy();
  });
});
