/**
 * `TaskStore` on the DynamoDB tasks table (`sessionId` S + `taskId` S, TTL `expiresAt`).
 *
 * Task item: `sessionId` = the owner key (the principal binding, so another principal's `GetItem` simply
 * misses), `taskId`, `status` (S), `version` (N, compare-and-swap counter), `expiresAt` (N, epoch seconds:
 * the TTL attribute), `deadline` (N, epoch ms: the round's, for `countActive`) and the record as JSON. A record up to {@link INLINE_BYTES} is inline in `body` (S);
 * a larger one (a multi-MB result) is split into binary chunk items under partition
 * `chunk#<taskId>#<bodyId>`, sort keys `00000`…, and the task item keeps `bodyId`, `bodyChunks`,
 * `bodyBytes` and `bodySha256`, checked on read so a torn or mixed read fails loudly instead of returning
 * a wrong result. Every write of a large record uses a fresh `bodyId`, so chunks are never overwritten in
 * place; the superseded set is deleted best-effort and otherwise expires through TTL.
 *
 * Reads are strongly consistent (a task is polled from any execution environment right after it was
 * written). Expiry is not filtered here: the runtime checks `expiresAt` on every read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DeleteItemCommand, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type {
  AttributeValue,
  DynamoDBClient,
  GetItemCommandOutput,
  QueryCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { ROUND_SETTLE_MS, TaskExistsError, TaskStoreUnavailableError } from '../../mcp/index.js';
import type { TaskPage, TaskRecord, TaskStore } from '../../mcp/index.js';
import { storeFailure } from './store-outage.js';

/** Largest record kept inline: well under DynamoDB's 400 KB item limit, leaving room for the other attributes. */
export const INLINE_BYTES = 300 * 1024;
/** Bytes per chunk item. */
const CHUNK_BYTES = 350 * 1024;
/** Chunk writes in flight at once. */
const PARALLEL_WRITES = 4;

export interface DynamoDbTaskStoreOptions {
  /** Prefer `createDynamoDbClient`; large records need a generous `requestTimeoutMs`. */
  client: DynamoDBClient;
  tableName: string;
}

type Item = Record<string, AttributeValue>;

/** DynamoDB implementation of the runtime's `TaskStore` port. */
export class DynamoDbTaskStore implements TaskStore {
  readonly #client: DynamoDBClient;
  readonly #table: string;

  constructor(options: DynamoDbTaskStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
  }

  async create(record: TaskRecord): Promise<void> {
    const item = await this.#item(record, record.version);
    await this.#put(item, 'attribute_not_exists(taskId)', {}, () => new TaskExistsError());
  }

  async get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    const output = await this.#send<GetItemCommandOutput>(
      new GetItemCommand({
        TableName: this.#table,
        Key: { sessionId: { S: owner }, taskId: { S: taskId } },
        ConsistentRead: true,
      }),
    );
    return output.Item === undefined ? undefined : this.#record(output.Item);
  }

  async replace(record: TaskRecord, expectedVersion: number): Promise<boolean> {
    const before = await this.#rawItem(record.owner, record.taskId);
    const item = await this.#item(record, expectedVersion + 1);
    const written = await this.#put(
      item,
      'version = :expected',
      { ':expected': { N: String(expectedVersion) } },
      () => undefined,
    );
    const oldBody = before?.bodyId?.S;
    if (written && oldBody !== undefined && oldBody !== item.bodyId?.S) {
      await this.#deleteChunks(record.taskId, oldBody, Number(before?.bodyChunks?.N)).catch(() => undefined);
    }
    return written;
  }

  async list(owner: string, limit: number, cursor?: string): Promise<TaskPage> {
    const output = await this.#send<QueryCommandOutput>(
      new QueryCommand({
        TableName: this.#table,
        KeyConditionExpression: 'sessionId = :owner',
        ExpressionAttributeValues: { ':owner': { S: owner } },
        ConsistentRead: true,
        Limit: limit,
        ...(cursor !== undefined && {
          ExclusiveStartKey: { sessionId: { S: owner }, taskId: { S: cursor } },
        }),
      }),
    );
    const records = await Promise.all((output.Items ?? []).map((item) => this.#record(item)));
    const next = output.LastEvaluatedKey?.taskId?.S;
    return next === undefined ? { records } : { records, nextCursor: next };
  }

  async countActive(owner: string, now: number): Promise<number> {
    let count = 0;
    let start: Item | undefined;
    do {
      const output = await this.#send<QueryCommandOutput>(
        new QueryCommand({
          TableName: this.#table,
          KeyConditionExpression: 'sessionId = :owner',
          // A working task holds its slot while its round may run (expired or not); one waiting for input,
          // until it expires. Items written before `deadline` was an attribute count until they expire.
          FilterExpression:
            '(#status = :input AND expiresAt > :now) OR (#status = :working AND ' +
            '(#deadline > :settled OR (attribute_not_exists(#deadline) AND expiresAt > :now)))',
          ExpressionAttributeNames: { '#status': 'status', '#deadline': 'deadline' },
          ExpressionAttributeValues: {
            ':owner': { S: owner },
            ':working': { S: 'working' },
            ':input': { S: 'input_required' },
            ':now': { N: String(Math.floor(now / 1000)) },
            ':settled': { N: String(now - ROUND_SETTLE_MS) },
          },
          Select: 'COUNT',
          ConsistentRead: true,
          ...(start !== undefined && { ExclusiveStartKey: start }),
        }),
      );
      count += output.Count ?? 0;
      start = output.LastEvaluatedKey;
    } while (start !== undefined);
    return count;
  }

  /** The task item for `record` at `version`; a large body is written to fresh chunks first. */
  async #item(record: TaskRecord, version: number): Promise<Item> {
    const body = Buffer.from(JSON.stringify({ ...record, version: undefined }), 'utf8');
    const item: Item = {
      sessionId: { S: record.owner },
      taskId: { S: record.taskId },
      status: { S: record.status },
      version: { N: String(version) },
      expiresAt: { N: String(Math.ceil(record.expiresAt / 1000)) },
      deadline: { N: String(Math.trunc(record.deadline)) },
    };
    if (body.length <= INLINE_BYTES) {
      item.body = { S: body.toString('utf8') };
      return item;
    }
    const bodyId = randomBytes(8).toString('hex');
    const chunks: Buffer[] = [];
    for (let offset = 0; offset < body.length; offset += CHUNK_BYTES)
      chunks.push(body.subarray(offset, offset + CHUNK_BYTES));
    for (let i = 0; i < chunks.length; i += PARALLEL_WRITES) {
      await Promise.all(
        chunks.slice(i, i + PARALLEL_WRITES).map((data, j) =>
          this.#send(
            new PutItemCommand({
              TableName: this.#table,
              Item: {
                sessionId: { S: chunkPartition(record.taskId, bodyId) },
                taskId: { S: chunkKey(i + j) },
                data: { B: data },
                expiresAt: item.expiresAt as AttributeValue,
              },
            }),
          ),
        ),
      );
    }
    item.bodyId = { S: bodyId };
    item.bodyChunks = { N: String(chunks.length) };
    item.bodyBytes = { N: String(body.length) };
    item.bodySha256 = { S: createHash('sha256').update(body).digest('hex') };
    return item;
  }

  async #record(item: Item): Promise<TaskRecord> {
    const version = Number(item.version?.N);
    const inline = item.body?.S;
    const text = inline ?? (await this.#readChunks(item));
    const parsed = JSON.parse(text) as TaskRecord;
    return { ...parsed, version };
  }

  async #readChunks(item: Item): Promise<string> {
    const taskId = item.taskId?.S ?? '';
    const bodyId = item.bodyId?.S;
    const count = Number(item.bodyChunks?.N);
    if (bodyId === undefined || !Number.isInteger(count)) throw new Error('task item has no body');
    const parts: Buffer[] = [];
    let start: Item | undefined;
    do {
      const output = await this.#send<QueryCommandOutput>(
        new QueryCommand({
          TableName: this.#table,
          KeyConditionExpression: 'sessionId = :chunks',
          ExpressionAttributeValues: { ':chunks': { S: chunkPartition(taskId, bodyId) } },
          ConsistentRead: true,
          ...(start !== undefined && { ExclusiveStartKey: start }),
        }),
      );
      for (const chunk of output.Items ?? []) parts.push(Buffer.from(chunk.data?.B ?? new Uint8Array()));
      start = output.LastEvaluatedKey;
    } while (start !== undefined);
    const body = Buffer.concat(parts);
    const digest = createHash('sha256').update(body).digest('hex');
    if (
      parts.length !== count ||
      body.length !== Number(item.bodyBytes?.N) ||
      digest !== item.bodySha256?.S
    ) {
      throw new Error('task body chunks are incomplete or do not match their digest');
    }
    return body.toString('utf8');
  }

  async #rawItem(owner: string, taskId: string): Promise<Item | undefined> {
    const output = await this.#send<GetItemCommandOutput>(
      new GetItemCommand({
        TableName: this.#table,
        Key: { sessionId: { S: owner }, taskId: { S: taskId } },
        ConsistentRead: true,
        ProjectionExpression: 'bodyId, bodyChunks',
      }),
    );
    return output.Item;
  }

  async #deleteChunks(taskId: string, bodyId: string, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      await this.#send(
        new DeleteItemCommand({
          TableName: this.#table,
          Key: { sessionId: { S: chunkPartition(taskId, bodyId) }, taskId: { S: chunkKey(i) } },
        }),
      );
    }
  }

  /** A conditional put: true when written, `onConflict()` (thrown when an Error) when the condition failed. */
  async #put(
    item: Item,
    condition: string,
    values: Item,
    onConflict: () => Error | undefined,
  ): Promise<boolean> {
    try {
      await this.#client.send(
        new PutItemCommand({
          TableName: this.#table,
          Item: item,
          ConditionExpression: condition,
          ...(Object.keys(values).length > 0 && { ExpressionAttributeValues: values }),
        }),
      );
      return true;
    } catch (error) {
      if ((error as { name?: unknown }).name !== 'ConditionalCheckFailedException') throw unavailable(error);
      const conflict = onConflict();
      if (conflict !== undefined) throw conflict;
      return false;
    }
  }

  async #send<T>(command: object): Promise<T> {
    try {
      // One generic path for every command type; the SDK's overloads do not accept a union of commands.
      const client = this.#client as unknown as { send(command: object): Promise<T> };
      return await client.send(command);
    } catch (error) {
      throw unavailable(error);
    }
  }
}

function chunkPartition(taskId: string, bodyId: string): string {
  return `chunk#${taskId}#${bodyId}`;
}

function chunkKey(index: number): string {
  return String(index).padStart(5, '0');
}

/** An outage as `TaskStoreUnavailableError`, a refusal (a client fault) as `StoreRequestError`. */
function unavailable(error: unknown): Error {
  return storeFailure(
    'task',
    error,
    (cause) => new TaskStoreUnavailableError('task store unavailable', { cause }),
  );
}
