/**
 * `StreamStore` on the streams table (`lib/table-schemas.ts`: `sessionId` (S) + `eventId` (S), TTL
 * `expiresAt` in epoch seconds). One partition per session holds, under distinct sort-key prefixes:
 *
 * - `counter`               `n` (N): the session's event counter, advanced with an atomic `ADD`;
 * - `stream#<streamId>`     `closed` (BOOL): one item per POST stream;
 * - `event#<000000000042>`  `streamId` (S), `data` (S): one item per SSE event; an event over one item's
 *   size is split into parts, `event#<000000000042>#001`… (`dynamodb-stream-parts.ts`).
 *
 * Event ids are the counter value zero-padded to 12 digits, so they are unique per session whichever
 * instance appends, and their sort-key order is their numeric order (reference-runtime-lessons §5 item 4).
 * Expiry is checked on every read: DynamoDB's TTL sweep runs up to days late.
 */
import {
  BatchWriteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  TransactionCanceledException,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomId } from '../../mcp/index.js';
import type { StoredStreamEvent, StreamStore } from '../../mcp/index.js';
import { MAX_PARTS, MAX_PART_BYTES, isPartKey, partKey, splitUtf8 } from './dynamodb-stream-parts.js';
import { StreamStoreError } from './stream-store-error.js';

/** Options for {@link DynamoDbStreamStore}. */
export interface DynamoDbStreamStoreOptions {
  /** Prefer `createDynamoDbClient`, which fails fast. */
  client: DynamoDBClient;
  /** The streams table (`MCP_STREAM_TABLE`). */
  tableName: string;
  /** Replay retention, refreshed on every append (`MCP_STREAM_TTL_MINUTES`). @default 60 */
  ttlMinutes?: number;
  /** Hard bound on one DynamoDB call, retries included. @default 2000 */
  operationTimeoutMs?: number;
  /** @default 128-bit random ids */
  newStreamId?: () => string;
  /** @default Date.now */
  clock?: () => number;
}

const COUNTER_KEY = 'counter';
const STREAM_PREFIX = 'stream#';
const EVENT_PREFIX = 'event#';
const ID_DIGITS = 12;
const EVENT_ID = /^\d{12}$/;
/** BatchWriteItem takes at most 25 requests (DynamoDB API reference). */
const BATCH_LIMIT = 25;

const eventKey = (eventId: string): string => `${EVENT_PREFIX}${eventId}`;
const streamKey = (streamId: string): string => `${STREAM_PREFIX}${streamId}`;

/** DynamoDB implementation of the runtime's `StreamStore` port. */
export class DynamoDbStreamStore implements StreamStore {
  readonly #client: DynamoDBClient;
  readonly #table: string;
  readonly #ttlMs: number;
  readonly #timeoutMs: number;
  readonly #newStreamId: () => string;
  readonly #clock: () => number;

  constructor(options: DynamoDbStreamStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#ttlMs = (options.ttlMinutes ?? 60) * 60_000;
    this.#timeoutMs = options.operationTimeoutMs ?? 2000;
    this.#newStreamId = options.newStreamId ?? randomId;
    this.#clock = options.clock ?? Date.now;
  }

  async createStream(sessionId: string): Promise<string> {
    const streamId = this.#newStreamId();
    await this.#client.send(
      new PutItemCommand({
        TableName: this.#table,
        Item: { ...this.#key(sessionId, streamKey(streamId)), closed: { BOOL: false }, ...this.#expiry() },
      }),
      this.#opts(),
    );
    return streamId;
  }

  /**
   * Takes the next session-unique id from the counter, writes the parts of an event larger than one item, then
   * writes the event (its head) and refreshes the stream's expiry in one transaction that requires the stream
   * item to exist, so an append racing a DELETE of the session fails instead of leaving an event behind
   * (reference-runtime-lessons §5 item 7).
   */
  async append(sessionId: string, streamId: string, data: string): Promise<string> {
    const parts = splitUtf8(data, MAX_PART_BYTES);
    // Checked before taking an id, so a refused event leaves no gap in the counter.
    if (parts.length > MAX_PARTS) throw new StreamStoreError('event_too_large', 'event too large to store');
    const counted = await this.#client.send(
      new UpdateItemCommand({
        TableName: this.#table,
        Key: this.#key(sessionId, COUNTER_KEY),
        UpdateExpression: 'ADD #n :one SET #exp = :exp',
        ExpressionAttributeNames: { '#n': 'n', '#exp': 'expiresAt' },
        ExpressionAttributeValues: { ':one': { N: '1' }, ':exp': this.#expiry().expiresAt },
        ReturnValues: 'UPDATED_NEW',
      }),
      this.#opts(),
    );
    const n = Number(counted.Attributes?.['n']?.N);
    if (!Number.isSafeInteger(n) || n < 1) throw new StreamStoreError('corrupt_counter', 'bad event counter');
    const eventId = String(n).padStart(ID_DIGITS, '0');
    if (parts.length > 1) await this.#putParts(sessionId, streamId, eventId, parts);
    try {
      await this.#client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.#table,
                Item: {
                  ...this.#key(sessionId, eventKey(eventId)),
                  streamId: { S: streamId },
                  data: { S: parts[0] ?? '' },
                  ...(parts.length > 1 && { parts: { N: String(parts.length) } }),
                  ...this.#expiry(),
                },
              },
            },
            {
              Update: {
                TableName: this.#table,
                Key: this.#key(sessionId, streamKey(streamId)),
                UpdateExpression: 'SET #exp = :exp',
                ConditionExpression: 'attribute_exists(#sk)',
                ExpressionAttributeNames: { '#exp': 'expiresAt', '#sk': 'eventId' },
                ExpressionAttributeValues: { ':exp': this.#expiry().expiresAt },
              },
            },
          ],
        }),
        this.#opts(),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException)
        throw new StreamStoreError('stream_not_found', 'stream not found', { cause: error });
      throw error;
    }
    return eventId;
  }

  async close(sessionId: string, streamId: string): Promise<void> {
    await this.#client
      .send(
        new UpdateItemCommand({
          TableName: this.#table,
          Key: this.#key(sessionId, streamKey(streamId)),
          UpdateExpression: 'SET #closed = :true',
          ConditionExpression: 'attribute_exists(#sk)',
          ExpressionAttributeNames: { '#closed': 'closed', '#sk': 'eventId' },
          ExpressionAttributeValues: { ':true': { BOOL: true } },
        }),
        this.#opts(),
      )
      .catch((error: unknown) => {
        // Closing a stream that a DELETE already removed is not a failure.
        if ((error as { name?: unknown }).name !== 'ConditionalCheckFailedException') throw error;
      });
  }

  async streamOf(sessionId: string, eventId: string): Promise<string | undefined> {
    // Anything that is not one of our ids (another server's, another format) names no stream here → 404.
    if (!EVENT_ID.test(eventId)) return undefined;
    const item = await this.#get(sessionId, eventKey(eventId));
    return item?.['streamId']?.S;
  }

  /**
   * Reads the stream's `closed` flag BEFORE querying its events: the writer closes only after its last
   * append, so a `closed: true` seen first guarantees the query returns every event (the "drain once more
   * after close" lesson, reference-runtime-lessons §5 item 4).
   */
  async after(sessionId: string, eventId: string): Promise<{ events: StoredStreamEvent[]; closed: boolean }> {
    const streamId = await this.streamOf(sessionId, eventId);
    if (streamId === undefined) return { events: [], closed: true };
    const stream = await this.#get(sessionId, streamKey(streamId));
    const closed = stream === undefined || stream['closed']?.BOOL === true;
    const next = String(Number(eventId) + 1).padStart(ID_DIGITS, '0');
    const events = new EventAssembler();
    let start: Record<string, AttributeValue> | undefined;
    const now = this.#clock();
    do {
      const page = await this.#client.send(
        new QueryCommand({
          TableName: this.#table,
          ConsistentRead: true,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
          FilterExpression: '#stream = :stream',
          ExpressionAttributeNames: { '#pk': 'sessionId', '#sk': 'eventId', '#stream': 'streamId' },
          ExpressionAttributeValues: {
            ':pk': { S: sessionId },
            ':from': { S: eventKey(next) },
            ':to': { S: eventKey('9'.repeat(ID_DIGITS)) },
            ':stream': { S: streamId },
          },
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
        this.#opts(),
      );
      for (const item of page.Items ?? []) events.add(item, now);
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    return { events: events.finish(), closed };
  }

  /** Deletes every item of the session's partition (events, streams, counter, client replies). */
  async deleteSession(sessionId: string): Promise<void> {
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await this.#client.send(
        new QueryCommand({
          TableName: this.#table,
          KeyConditionExpression: '#pk = :pk',
          ProjectionExpression: '#pk, #sk',
          ExpressionAttributeNames: { '#pk': 'sessionId', '#sk': 'eventId' },
          ExpressionAttributeValues: { ':pk': { S: sessionId } },
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
        this.#opts(),
      );
      const keys = (page.Items ?? []).map((item) => ({
        sessionId: item['sessionId'],
        eventId: item['eventId'],
      }));
      for (let i = 0; i < keys.length; i += BATCH_LIMIT) {
        await this.#deleteBatch(keys.slice(i, i + BATCH_LIMIT) as Record<string, AttributeValue>[]);
      }
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
  }

  /** Writes parts 2… of an event (25 per batch); they stay invisible until the head is written. */
  async #putParts(sessionId: string, streamId: string, eventId: string, parts: string[]): Promise<void> {
    const items: { PutRequest: { Item: Record<string, AttributeValue> } }[] = parts
      .slice(1)
      .map((data, index) => ({
        PutRequest: {
          Item: {
            ...this.#key(sessionId, partKey(eventId, index + 1)),
            streamId: { S: streamId },
            data: { S: data },
            ...this.#expiry(),
          },
        },
      }));
    for (let i = 0; i < items.length; i += BATCH_LIMIT) {
      let requests = items.slice(i, i + BATCH_LIMIT);
      for (let round = 0; round < 3 && requests.length > 0; round += 1) {
        const output = await this.#client.send(
          new BatchWriteItemCommand({ RequestItems: { [this.#table]: requests } }),
          this.#opts(),
        );
        requests = (output.UnprocessedItems?.[this.#table] ?? []).flatMap((r) =>
          r.PutRequest?.Item === undefined ? [] : [{ PutRequest: { Item: r.PutRequest.Item } }],
        );
      }
      // Without every part the event must not become visible: the head is never written.
      if (requests.length > 0)
        throw new StreamStoreError('corrupt_item', 'event parts could not all be written');
    }
  }

  async #deleteBatch(keys: Record<string, AttributeValue>[]): Promise<void> {
    let requests = keys.map((Key) => ({ DeleteRequest: { Key } }));
    // Unprocessed items come back under throttling; a few rounds, then TTL finishes the job.
    for (let round = 0; round < 3 && requests.length > 0; round += 1) {
      const output = await this.#client.send(
        new BatchWriteItemCommand({ RequestItems: { [this.#table]: requests } }),
        this.#opts(),
      );
      requests = (output.UnprocessedItems?.[this.#table] ?? []).flatMap((r) =>
        r.DeleteRequest?.Key === undefined ? [] : [{ DeleteRequest: { Key: r.DeleteRequest.Key } }],
      );
    }
  }

  /** A strongly consistent read (the next request may land on another instance); expired = absent. */
  async #get(sessionId: string, sortKey: string): Promise<Record<string, AttributeValue> | undefined> {
    const output = await this.#client.send(
      new GetItemCommand({
        TableName: this.#table,
        Key: this.#key(sessionId, sortKey),
        ConsistentRead: true,
      }),
      this.#opts(),
    );
    const item = output.Item;
    return item === undefined || expiresAtMs(item) <= this.#clock() ? undefined : item;
  }

  #key(sessionId: string, sortKey: string): Record<string, AttributeValue> {
    return { sessionId: { S: sessionId }, eventId: { S: sortKey } };
  }

  /** `expiresAt` in epoch seconds (the TTL attribute's unit), rounded up so retention is never short. */
  #expiry(): { expiresAt: AttributeValue } {
    return { expiresAt: { N: String(Math.ceil((this.#clock() + this.#ttlMs) / 1000)) } };
  }

  /** Per-call options: a hard bound on one DynamoDB call, retries included. */
  #opts(): { abortSignal: AbortSignal } {
    return { abortSignal: AbortSignal.timeout(this.#timeoutMs) };
  }
}

function expiresAtMs(item: Record<string, AttributeValue>): number {
  const seconds = Number(item['expiresAt']?.N);
  return Number.isFinite(seconds) ? seconds * 1000 : 0;
}

/**
 * Rebuilds events from a Query's items in sort-key order: each head, followed by its parts. A head whose parts
 * are not all there (they were written first, so only a concurrent session delete can do this) is an error,
 * not a shorter message.
 */
class EventAssembler {
  readonly #events: StoredStreamEvent[] = [];
  #open: { eventId: string; pieces: string[]; expected: number; live: boolean } | undefined;

  add(item: Record<string, AttributeValue>, now: number): void {
    const sortKey = item['eventId']?.S;
    const data = item['data']?.S;
    if (sortKey === undefined || data === undefined) return;
    if (isPartKey(sortKey)) {
      const open = this.#open;
      if (open !== undefined && sortKey.startsWith(`${EVENT_PREFIX}${open.eventId}#`)) open.pieces.push(data);
      return;
    }
    this.#close();
    const expected = Number(item['parts']?.N ?? '1');
    this.#open = {
      eventId: sortKey.slice(EVENT_PREFIX.length),
      pieces: [data],
      expected: Number.isSafeInteger(expected) && expected >= 1 ? expected : 1,
      live: expiresAtMs(item) > now,
    };
  }

  finish(): StoredStreamEvent[] {
    this.#close();
    return this.#events;
  }

  #close(): void {
    const open = this.#open;
    this.#open = undefined;
    if (open === undefined || !open.live) return;
    if (open.pieces.length !== open.expected)
      throw new StreamStoreError('corrupt_item', `event ${open.eventId} is missing parts`);
    this.#events.push({ eventId: open.eventId, data: open.pieces.join('') });
  }
}
