/**
 * `SessionStore` on DynamoDB. Item: `sessionId` (S, partition key), `createdAt` (N, epoch ms), `expiresAt`
 * (N, epoch SECONDS: the table's TTL attribute), `data` (M of S). Exact names and second-precision TTL per
 * reference-runtime-lessons §5.6.
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SessionStoreUnavailableError } from '../../mcp/index.js';
import type { SessionRecord, SessionStore } from '../../mcp/index.js';
import { isStoreRefusal, StoreRequestError } from './store-outage.js';

/** Options for {@link DynamoDbSessionStore}. */
export interface DynamoDbSessionStoreOptions {
  /** Prefer `createDynamoDbClient`, which fails fast. */
  client: DynamoDBClient;
  tableName: string;
  /** Hard bound on one DynamoDB call, retries included. @default 2000 */
  operationTimeoutMs?: number;
  /** @default Date.now */
  clock?: () => number;
}

function parseItem(item: Record<string, AttributeValue>): SessionRecord | undefined {
  const sessionId = item['sessionId']?.S;
  const createdAt = Number(item['createdAt']?.N);
  const expiresAtSeconds = Number(item['expiresAt']?.N);
  const data = item['data']?.M;
  if (sessionId === undefined || !Number.isFinite(createdAt) || !Number.isFinite(expiresAtSeconds))
    return undefined;
  const values = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(data ?? {})) if (value.S !== undefined) values[key] = value.S;
  return { sessionId, createdAt, expiresAt: expiresAtSeconds * 1000, data: values };
}

/** DynamoDB implementation of the runtime's `SessionStore` port. */
export class DynamoDbSessionStore implements SessionStore {
  readonly #client: DynamoDBClient;
  readonly #tableName: string;
  readonly #timeoutMs: number;
  readonly #clock: () => number;

  constructor(options: DynamoDbSessionStoreOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#timeoutMs = options.operationTimeoutMs ?? 2000;
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * The stored session, or undefined. Strongly consistent: the next request of a session may land on
   * another Lambda instance right after `put`. An item whose `expiresAt` has passed is treated as absent
   * even though TTL has not swept it yet (DynamoDB deletes "typically within two days",
   * mcp-2026-notes §3.3); the runtime checks expiry again, so this is defence in depth.
   */
  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const command = new GetItemCommand({
      TableName: this.#tableName,
      Key: { sessionId: { S: sessionId } },
      ConsistentRead: true,
    });
    const output = await this.#guard((abortSignal) => this.#client.send(command, { abortSignal }));
    const record = output.Item === undefined ? undefined : parseItem(output.Item);
    return record === undefined || record.expiresAt <= this.#clock() ? undefined : record;
  }

  /** Upsert (PutItem replaces the whole item), so a sliding refresh never fails on an existing row. */
  async put(record: SessionRecord): Promise<void> {
    // Null prototype: a data key named `__proto__` must be stored, not become the object's prototype.
    const data = Object.create(null) as Record<string, AttributeValue>;
    for (const [key, value] of Object.entries(record.data)) data[key] = { S: value };
    const command = new PutItemCommand({
      TableName: this.#tableName,
      Item: {
        sessionId: { S: record.sessionId },
        createdAt: { N: String(Math.trunc(record.createdAt)) },
        // TTL needs epoch seconds; rounding up never cuts a session the runtime granted short.
        expiresAt: { N: String(Math.ceil(record.expiresAt / 1000)) },
        data: { M: data },
      },
    });
    await this.#guard((abortSignal) => this.#client.send(command, { abortSignal }));
  }

  async delete(sessionId: string): Promise<void> {
    const command = new DeleteItemCommand({
      TableName: this.#tableName,
      Key: { sessionId: { S: sessionId } },
    });
    await this.#guard((abortSignal) => this.#client.send(command, { abortSignal }));
  }

  /**
   * Runs one call under the hard timeout. A refusal by DynamoDB (a client fault other than throttling or a
   * missing table) is `StoreRequestError`; anything else, network errors and timeouts included, is the
   * port's outage error.
   */
  async #guard<T>(call: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await call(AbortSignal.timeout(this.#timeoutMs));
    } catch (error) {
      if (isStoreRefusal(error)) throw new StoreRequestError('session', error);
      throw new SessionStoreUnavailableError(undefined, { cause: error });
    }
  }
}
