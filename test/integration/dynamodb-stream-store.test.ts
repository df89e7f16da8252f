/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * DynamoDbStreamStore and DynamoDbClientReplyStore against DynamoDB Local (real Java process, no mocks),
 * alone and behind two McpServer instances that share nothing but the tables, as two Lambda execution
 * environments do. One DynamoDB Local start for the whole file (it takes 20–45 s on a loaded machine).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  createDynamoDbClient,
  DynamoDbClientReplyStore,
  DynamoDbRequestStateStore,
  DynamoDbSessionStore,
  DynamoDbStreamStore,
  StreamStoreError,
} from '../../lambda/aws/index.js';
import { McpServer, silentLogger } from '../../lambda/mcp/index.js';
import { sessionsTable, streamsTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { needsJava } from '../helpers/java.js';
import { sseJson } from '../helpers/sse.js';

const PREFIX = 'it-streams-';
const STREAMS = `${PREFIX}${streamsTable.id}`;
const SESSIONS = `${PREFIX}${sessionsTable.id}`;
const URL_ = 'http://127.0.0.1/mcp';
const TIMEOUT = 15_000;

const sessionId = (): string => `s-${Math.random().toString(36).slice(2)}`;

function post(message: unknown, session?: string): Request {
  return new Request(URL_, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify(message),
  });
}

describe('DynamoDB stream and client-reply stores on DynamoDB Local', { timeout: 300_000 }, () => {
  const skipReason = needsJava() || undefined;
  let db: DynamoDbLocal | undefined;
  let client: DynamoDBClient;
  let streams: DynamoDbStreamStore;
  let replies: DynamoDbClientReplyStore;

  before(async () => {
    if (skipReason !== undefined) return;
    db = await startDynamoDbLocal({ tables: { schemas: [streamsTable, sessionsTable], prefix: PREFIX } });
    // Generous timeouts: DynamoDB Local (Java) on a shared 2-core machine can take seconds per call.
    client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: TIMEOUT });
    streams = new DynamoDbStreamStore({ client, tableName: STREAMS, operationTimeoutMs: TIMEOUT });
    replies = new DynamoDbClientReplyStore({ client, tableName: STREAMS, operationTimeoutMs: TIMEOUT });
  });

  after(async () => {
    client?.destroy();
    await db?.stop();
  });

  it('gives zero-padded ids, unique per session, to concurrent appends from two instances', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare: a second store object with its own client stands for another execution environment.
    const otherClient = createDynamoDbClient({ endpoint: db!.endpoint, requestTimeoutMs: TIMEOUT });
    const other = new DynamoDbStreamStore({
      client: otherClient,
      tableName: STREAMS,
      operationTimeoutMs: TIMEOUT,
    });
    const session = sessionId();
    const first = await streams.createStream(session);
    const second = await other.createStream(session);
    // Act
    const ids = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => streams.append(session, first, `a${i}`)),
      ...Array.from({ length: 5 }, (_, i) => other.append(session, second, `b${i}`)),
    ]);
    otherClient.destroy();
    // Assess
    for (const id of ids) assert.match(id, /^\d{12}$/);
    assert.deepEqual(
      [...ids].sort(),
      Array.from({ length: 10 }, (_, i) => String(i + 1).padStart(12, '0')),
    );
  });

  it('replays only the later events of the Last-Event-ID’s own stream and reports closing', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const session = sessionId();
    const one = await streams.createStream(session);
    const two = await streams.createStream(session);
    const prime = await streams.append(session, one, '');
    await streams.append(session, two, 'other stream');
    await streams.append(session, one, 'x');
    await streams.append(session, one, 'y');

    const open = await streams.after(session, prime);
    await streams.close(session, one);
    const closed = await streams.after(session, prime);

    assert.equal(await streams.streamOf(session, prime), one);
    assert.deepEqual(
      open.events.map((e) => e.data),
      ['x', 'y'],
    );
    assert.equal(open.closed, false);
    assert.equal(closed.closed, true);
    assert.deepEqual(closed.events, open.events);
  });

  it('knows no stream for a foreign, malformed or other-session event id', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const session = sessionId();
    const stream = await streams.createStream(session);
    const id = await streams.append(session, stream, 'x');
    assert.equal(await streams.streamOf(sessionId(), id), undefined);
    assert.equal(await streams.streamOf(session, '1'), undefined);
    assert.equal(await streams.streamOf(session, 'counter'), undefined);
    assert.equal(await streams.streamOf(session, String(Number(id) + 1000).padStart(12, '0')), undefined);
  });

  it('treats events past expiresAt as gone even before the TTL sweep', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    let now = Date.now();
    const store = new DynamoDbStreamStore({
      client,
      tableName: STREAMS,
      ttlMinutes: 1,
      operationTimeoutMs: TIMEOUT,
      clock: () => now,
    });
    const session = sessionId();
    const stream = await store.createStream(session);
    const id = await store.append(session, stream, 'x');
    now += 61_000;
    assert.equal(await store.streamOf(session, id), undefined);
    assert.deepEqual(await store.after(session, id), { events: [], closed: true });
  });

  it('deletes a session’s whole partition and refuses appends to its streams afterwards', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const session = sessionId();
    const stream = await streams.createStream(session);
    for (let i = 0; i < 30; i += 1) await streams.append(session, stream, `e${i}`);
    await replies.put(session, 'srv-x', { result: {} });

    await streams.deleteSession(session);
    const left = await client.send(
      new QueryCommand({
        TableName: STREAMS,
        KeyConditionExpression: 'sessionId = :s',
        ExpressionAttributeValues: { ':s': { S: session } },
      }),
    );

    assert.equal(left.Count, 0);
    await assert.rejects(
      streams.append(session, stream, 'late'),
      (error) => error instanceof StreamStoreError && error.code === 'stream_not_found',
    );
  });

  it('stores a multi-megabyte final message in parts and replays it intact, between ordinary events', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare: about 3 MB of JSON with two- and four-byte UTF-8 characters, so parts split inside text.
    const session = sessionId();
    const stream = await streams.createStream(session);
    const records = Array.from({ length: 12_000 }, (_, i) => ({ i, name: `Zoë Łukasz 😀 ${i} `.repeat(10) }));
    const final = JSON.stringify({ jsonrpc: '2.0', id: 'big', result: { records } });
    assert.ok(Buffer.byteLength(final) > 3_000_000);
    const priming = await streams.append(session, stream, '');

    // Act
    const finalId = await streams.append(session, stream, final);
    const afterId = await streams.append(session, stream, 'after');
    await streams.close(session, stream);
    const { events, closed } = await streams.after(session, priming);

    // Assess
    assert.equal(closed, true);
    assert.deepEqual(
      events.map((event) => event.eventId),
      [finalId, afterId],
    );
    assert.equal(events[0]?.data, final);
    assert.equal(events[1]?.data, 'after');
    assert.equal(Number(afterId), Number(finalId) + 1);
    let stored = 0;
    let start: Record<string, AttributeValue> | undefined;
    do {
      // Query pages stop at 1 MB: count every page.
      const page = await client.send(
        new QueryCommand({
          TableName: STREAMS,
          KeyConditionExpression: 'sessionId = :s AND begins_with(eventId, :e)',
          ExpressionAttributeValues: { ':s': { S: session }, ':e': { S: `event#${finalId}` } },
          ProjectionExpression: 'eventId',
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      stored += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    t.diagnostic(`${Buffer.byteLength(final)} bytes stored as ${stored} items`);
    assert.ok(stored >= 9);
  });

  it('hands a client reply out exactly once, even to concurrent takers', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const session = sessionId();
    await replies.put(session, 'srv-1', { result: { action: 'accept' } });
    const taken = await Promise.all([replies.take(session, 'srv-1'), replies.take(session, 'srv-1')]);
    assert.deepEqual(
      taken.filter((reply) => reply !== undefined),
      [{ result: { action: 'accept' } }],
    );
    assert.equal(await replies.take(session, 'srv-1'), undefined);
  });

  it('redeems an issued requestState binding once, even for concurrent retries from two environments', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare: two store objects with their own clients stand for two execution environments.
    const otherClient = createDynamoDbClient({ endpoint: db!.endpoint, requestTimeoutMs: TIMEOUT });
    const issuer = new DynamoDbRequestStateStore(client, STREAMS);
    const other = new DynamoDbRequestStateStore(otherClient, STREAMS);
    const key = `k-${Math.random().toString(36).slice(2)}`;
    await issuer.put(key, Date.now() + 60_000);
    // Act
    const taken = await Promise.all([issuer.take(key, Date.now()), other.take(key, Date.now())]);
    // Assess
    assert.deepEqual(taken.filter(Boolean), [true]);
    assert.equal(await other.take(key, Date.now()), false);
    otherClient.destroy();
  });

  it('refuses an expired requestState binding that the TTL sweep has not removed yet', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const store = new DynamoDbRequestStateStore(client, STREAMS);
    const key = `k-${Math.random().toString(36).slice(2)}`;
    await store.put(key, Date.now() + 1000);
    assert.equal(await store.take(key, Date.now() + 5000), false);
    assert.equal(await store.take(key, Date.now()), false, 'an expired binding is consumed, not revived');
  });

  it('treats a client reply past its retention as absent', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    let now = Date.now();
    const store = new DynamoDbClientReplyStore({
      client,
      tableName: STREAMS,
      ttlMs: 1000,
      operationTimeoutMs: TIMEOUT,
      clock: () => now,
    });
    const session = sessionId();
    await store.put(session, 'srv-2', { error: { code: -1, message: 'no' } });
    now += 2000;
    assert.equal(await store.take(session, 'srv-2'), undefined);
  });

  it('replays a multi-megabyte final result intact to a client that resumes on another server', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare: two servers sharing only the tables; the tool's result is about 3 MB of JSON.
    const text = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => `Zoë ${i} `.repeat(16)));
    const make = (): McpServer => {
      const server = new McpServer({
        name: 'it',
        version: '1',
        logger: silentLogger,
        keepaliveMs: 0,
        sessionStore: new DynamoDbSessionStore({ client, tableName: SESSIONS, operationTimeoutMs: TIMEOUT }),
        streamStore: new DynamoDbStreamStore({ client, tableName: STREAMS, operationTimeoutMs: TIMEOUT }),
      });
      server.registerStreamingTool({ name: 'big', inputSchema: { type: 'object' } }, () =>
        Promise.resolve({ content: [{ type: 'text', text }] }),
      );
      return server;
    };
    const a = make();
    const b = make();
    const init = await a.handle(
      post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }),
    );
    const session = init.headers.get('mcp-session-id')!;
    await init.text();

    // Act: call on A, keep only the priming frame, drop the connection, resume on B.
    const call = await a.handle(
      post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'big' } }, session),
    );
    const reader = call.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    await a.settled();
    const primingId = /^id: (\d+)/m.exec(first)?.[1];
    assert.ok(primingId, first);
    const replay = await b.handle(
      new Request(URL_, {
        method: 'GET',
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': primingId,
        },
      }),
    );
    const messages = sseJson<any>(await replay.text());

    // Assess
    const final = messages.find((m) => m.id === 7);
    assert.equal(final?.error, undefined);
    assert.equal(final?.result?.content?.[0]?.text, text);
    t.diagnostic(`replayed a final message of ${Buffer.byteLength(JSON.stringify(final))} bytes`);
  });

  it('serves one session from two servers sharing only the tables: client reply and replay cross over', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    // Prepare: two servers, each with its own store objects, like two execution environments.
    const make = (): McpServer => {
      const server = new McpServer({
        name: 'it',
        version: '1',
        logger: silentLogger,
        keepaliveMs: 0,
        clientReplyPollMs: 20,
        sessionStore: new DynamoDbSessionStore({ client, tableName: SESSIONS, operationTimeoutMs: TIMEOUT }),
        streamStore: new DynamoDbStreamStore({ client, tableName: STREAMS, operationTimeoutMs: TIMEOUT }),
        clientReplyStore: new DynamoDbClientReplyStore({
          client,
          tableName: STREAMS,
          operationTimeoutMs: TIMEOUT,
        }),
      });
      server.registerStreamingTool({ name: 'ask', inputSchema: { type: 'object' } }, async (_args, ctx) => {
        const reply = await ctx.request('sampling/createMessage', { messages: [], maxTokens: 1 });
        return { content: [{ type: 'text', text: `sampled ${JSON.stringify(reply)}` }] };
      });
      return server;
    };
    const a = make();
    const b = make();
    const init = await a.handle(
      post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }),
    );
    const session = init.headers.get('mcp-session-id')!;
    await init.text();

    // Act: call on A, read up to the server request, drop the connection, answer through B.
    const call = await a.handle(
      post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask' } }, session),
    );
    const reader = call.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('sampling/createMessage')) {
      const chunk = await reader.read();
      assert.equal(chunk.done, false);
      text += decoder.decode(chunk.value, { stream: true });
    }
    await reader.cancel();
    const request = sseJson<any>(text).find((m) => m.method === 'sampling/createMessage');
    const lastId = /id: (\d+)\n(?:event: message\n)?data: .*sampling/.exec(text)?.[1];
    assert.ok(lastId);
    const answered = await b.handle(
      post({ jsonrpc: '2.0', id: request.id, result: { text: 'hi' } }, session),
    );
    await a.settled();
    const replay = await b.handle(
      new Request(URL_, {
        method: 'GET',
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': lastId,
        },
      }),
    );
    const foreign = await b.handle(
      new Request(URL_, {
        method: 'GET',
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': '999999999999',
        },
      }),
    );

    // Assess
    assert.equal(answered.status, 202);
    assert.equal(replay.status, 200);
    const replayed = sseJson<any>(await replay.text());
    assert.equal(replayed.length, 1);
    assert.equal(replayed[0].id, 1);
    assert.deepEqual(replayed[0].result.content, [{ type: 'text', text: 'sampled {"text":"hi"}' }]);
    assert.equal(foreign.status, 404);
    await foreign.body?.cancel();
  });
});
