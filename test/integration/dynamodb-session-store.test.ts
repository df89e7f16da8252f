/**
 * DynamoDbSessionStore against DynamoDB Local (real Java process, no mocks), alone and behind McpServer,
 * including an outage: DynamoDB Local stopped mid-run, then restarted on the same port.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, DynamoDbSessionStore, StoreRequestError } from '../../lambda/aws/index.js';
import { createDemoServer } from '../helpers/demo-server.js';
import { SessionStoreUnavailableError, silentLogger } from '../../lambda/mcp/index.js';
import type { McpServer, SessionRecord } from '../../lambda/mcp/index.js';
import { sessionsTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { needsJava } from '../helpers/java.js';

const PREFIX = 'it-';
const TABLE = `${PREFIX}${sessionsTable.id}`;
const ENDPOINT_URL = 'http://127.0.0.1/mcp/apps/bos/platform';

function record(overrides: Partial<SessionRecord> = {}): SessionRecord {
  const now = Date.now();
  return {
    sessionId: `s-${Math.random().toString(36).slice(2)}`,
    createdAt: now,
    expiresAt: now + 60_000,
    data: {},
    ...overrides,
  };
}

function post(message: unknown, sessionId?: string): Request {
  return new Request(ENDPOINT_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId === undefined
        ? {}
        : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify(message),
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'it', version: '1' } },
};
const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

async function openSession(server: McpServer): Promise<string> {
  const response = await server.handle(post(initialize));
  assert.equal(response.status, 200);
  await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  assert.ok(sessionId);
  const initialized = await server.handle(
    post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId),
  );
  assert.equal(initialized.status, 202);
  return sessionId;
}

describe('DynamoDbSessionStore on DynamoDB Local', { timeout: 300_000 }, () => {
  const skipReason = needsJava() || undefined;
  let db: DynamoDbLocal | undefined;
  let client: DynamoDBClient;
  let store: DynamoDbSessionStore;
  let dataDir: string;

  before(async () => {
    if (skipReason !== undefined) return;
    // On disk, so the data survives restart() like a real outage-and-recovery.
    dataDir = mkdtempSync(join(tmpdir(), 'bos-mcp-ddb-'));
    db = await startDynamoDbLocal({ dataDir, tables: { schemas: [sessionsTable], prefix: PREFIX } });
    // Generous timeouts for the functional cases: DynamoDB Local (Java) on a shared 2-core machine can take
    // seconds per call under load. The outage case builds a store with the production (fast-fail) defaults.
    client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 15_000 });
    store = new DynamoDbSessionStore({ client, tableName: TABLE, operationTimeoutMs: 15_000 });
  });

  after(async () => {
    client?.destroy();
    await db?.stop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates and reads a session with the exact item layout', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare
    const session = record({ data: { protocolVersion: '2025-11-25', initialized: 'true' } });
    // Act
    await store.put(session);
    const read = await store.get(session.sessionId);
    const raw = await client.send(
      new GetItemCommand({ TableName: TABLE, Key: { sessionId: { S: session.sessionId } } }),
    );
    // Assess
    // `data` comes back with a null prototype, so a stored key such as `__proto__` stays plain data.
    assert.deepEqual(
      { ...read, data: { ...read?.data } },
      { ...session, expiresAt: Math.ceil(session.expiresAt / 1000) * 1000 },
    );
    assert.equal(raw.Item?.['expiresAt']?.N, String(Math.ceil(session.expiresAt / 1000)));
    assert.equal(raw.Item?.['createdAt']?.N, String(session.createdAt));
    assert.deepEqual(raw.Item?.['data']?.M, {
      protocolVersion: { S: '2025-11-25' },
      initialized: { S: 'true' },
    });
  });

  it('a key DynamoDB refuses is a client fault, not an outage, and its message carries no DynamoDB text', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // A partition key over 2,048 bytes: DynamoDB answers ValidationException (a client fault).
    await assert.rejects(store.get('s'.repeat(2049)), (error) => {
      assert.ok(!(error instanceof SessionStoreUnavailableError), String(error));
      assert.ok(error instanceof StoreRequestError, String(error));
      assert.equal(error.message, 'session store refused the request (ValidationException)');
      return true;
    });
  });

  it('slides a session: put is an upsert that replaces expiry and data', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare
    const session = record({ data: { step: '1' } });
    await store.put(session);
    // Act
    await store.put({ ...session, expiresAt: session.expiresAt + 600_000, data: { step: '2' } });
    const read = await store.get(session.sessionId);
    // Assess
    assert.equal(read?.expiresAt, Math.ceil((session.expiresAt + 600_000) / 1000) * 1000);
    assert.equal(read?.createdAt, session.createdAt);
    assert.deepEqual({ ...read?.data }, { step: '2' });
  });

  it('treats an expired item that TTL has not swept yet as absent', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare
    const session = record({ createdAt: Date.now() - 120_000, expiresAt: Date.now() - 60_000 });
    await store.put(session);
    // Act
    const read = await store.get(session.sessionId);
    const raw = await client.send(
      new GetItemCommand({ TableName: TABLE, Key: { sessionId: { S: session.sessionId } } }),
    );
    // Assess
    assert.equal(read, undefined);
    assert.ok(raw.Item !== undefined, 'the item is still in the table');
  });

  it('rejects an expired-but-unswept session through McpServer with 404', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare
    const server = createDemoServer({ sessionStore: store, logger: silentLogger });
    const sessionId = await openSession(server);
    const pastSeconds = String(Math.floor(Date.now() / 1000) - 30);
    await client.send(
      new UpdateItemCommand({
        TableName: TABLE,
        Key: { sessionId: { S: sessionId } },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': { N: pastSeconds } },
      }),
    );
    // Act
    const response = await server.handle(post(toolsList, sessionId));
    // Assess
    assert.equal(response.status, 404);
    await response.body?.cancel();
  });

  it('stores data keys such as __proto__ as plain data', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare
    const session = record({
      data: JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string>,
    });
    // Act
    await store.put(session);
    const read = await store.get(session.sessionId);
    // Assess
    assert.equal(Object.getOwnPropertyDescriptor(read?.data, '__proto__')?.value, 'x');
    assert.equal(read?.data['constructor'], 'y');
  });

  it('deletes a session', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare
    const session = record();
    await store.put(session);
    // Act
    await store.delete(session.sessionId);
    // Assess
    assert.equal(await store.get(session.sessionId), undefined);
  });

  it('takes concurrent upserts of one session without failing; the last write wins whole', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare
    const session = record();
    const writes = Array.from({ length: 25 }, (_, index) => ({
      ...session,
      data: { writer: String(index) },
    }));
    // Act
    await Promise.all(writes.map((write) => store.put(write)));
    const read = await store.get(session.sessionId);
    // Assess
    const writer = Number(read?.data['writer']);
    assert.ok(Number.isInteger(writer) && writer >= 0 && writer < 25);
    assert.deepEqual(Object.keys(read?.data ?? {}), ['writer']);
  });

  it('answers 503 within 5 s while DynamoDB is down, and recovers after restart with the same server', async (t) => {
    if (skipReason !== undefined || db === undefined)
      return t.skip(skipReason ?? 'DynamoDB Local not started');
    // Prepare
    const fastClient = createDynamoDbClient({ endpoint: db.endpoint });
    const fastStore = new DynamoDbSessionStore({ client: fastClient, tableName: TABLE });
    t.after(() => fastClient.destroy());
    const server = createDemoServer({ sessionStore: fastStore, logger: silentLogger });
    // The session is opened through the generous store (same table): under load, a live DynamoDB Local can
    // take longer than the fast store's 2 s, and the setup is not what is tested.
    const sessionId = await openSession(createDemoServer({ sessionStore: store, logger: silentLogger }));
    await db.stop();
    // Act
    const startedAt = Date.now();
    const during = await server.handle(post(toolsList, sessionId));
    const elapsedMs = Date.now() - startedAt;
    const duringBody = (await during.json()) as { error?: { code: number; message: string } };
    const fresh = await server.handle(post(initialize));
    await fresh.text();
    await db.restart();
    // A restarted JVM can be slower than 2 s on its first calls under load, and 503 is then the right answer:
    // retry as a client told `Retry-After` would, until the same server answers again.
    let recovered = await server.handle(post(toolsList, sessionId));
    const retriedUntil = Date.now() + 60_000;
    while (recovered.status === 503 && Date.now() < retriedUntil) {
      await recovered.text();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      recovered = await server.handle(post(toolsList, sessionId));
    }
    // Assess
    assert.equal(during.status, 503);
    assert.ok(elapsedMs < 5000, `503 took ${elapsedMs} ms`);
    assert.equal(duringBody.error?.code, -32603);
    assert.equal(duringBody.error?.message, 'session store unavailable');
    assert.equal(fresh.status, 503);
    assert.equal(recovered.status, 200);
    const result = (await recovered.json()) as { result?: { tools?: { name: string }[] } };
    assert.deepEqual(result.result?.tools?.map((tool) => tool.name).sort(), ['demo_events', 'echo']);
  });
});
