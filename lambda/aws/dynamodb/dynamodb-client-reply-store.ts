/**
 * `ClientReplyStore` on the streams table: a client's reply to a server-to-client request is one item in
 * the session's partition under sort key `reply#<server request id>`, with `reply` (S, the JSON of
 * `{result}` or `{error}`) and `expiresAt` (N, epoch seconds, the table's TTL attribute). The POST carrying
 * the reply `put`s it; the instance whose tool waits polls `take`.
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ClientReply, ClientReplyStore } from '../../mcp/index.js';
import { StreamStoreError } from './stream-store-error.js';

/** Options for {@link DynamoDbClientReplyStore}. */
export interface DynamoDbClientReplyStoreOptions {
  /** Prefer `createDynamoDbClient`, which fails fast. */
  client: DynamoDBClient;
  /** The streams table (`MCP_STREAM_TABLE`). */
  tableName: string;
  /** How long an untaken reply is kept. @default 300000 (5 min) */
  ttlMs?: number;
  /** Hard bound on one DynamoDB call, retries included. @default 2000 */
  operationTimeoutMs?: number;
  /** @default Date.now */
  clock?: () => number;
}

const REPLY_PREFIX = 'reply#';

/** DynamoDB implementation of the runtime's `ClientReplyStore` port. */
export class DynamoDbClientReplyStore implements ClientReplyStore {
  readonly #client: DynamoDBClient;
  readonly #table: string;
  readonly #ttlMs: number;
  readonly #timeoutMs: number;
  readonly #clock: () => number;

  constructor(options: DynamoDbClientReplyStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#ttlMs = options.ttlMs ?? 300_000;
    this.#timeoutMs = options.operationTimeoutMs ?? 2000;
    this.#clock = options.clock ?? Date.now;
  }

  async put(sessionId: string, requestId: string, reply: ClientReply): Promise<void> {
    const expiresAt = Math.ceil((this.#clock() + this.#ttlMs) / 1000);
    await this.#client.send(
      new PutItemCommand({
        TableName: this.#table,
        Item: {
          ...this.#key(sessionId, requestId),
          reply: { S: JSON.stringify(reply) },
          expiresAt: { N: String(expiresAt) },
        },
      }),
      this.#opts(),
    );
  }

  /**
   * A strongly consistent read first (cheap while nothing has arrived, which is most polls), then a
   * conditional delete returning the old item, so of two concurrent takers only one gets the reply.
   */
  async take(sessionId: string, requestId: string): Promise<ClientReply | undefined> {
    const key = this.#key(sessionId, requestId);
    const found = await this.#client.send(
      new GetItemCommand({ TableName: this.#table, Key: key, ConsistentRead: true }),
      this.#opts(),
    );
    if (found.Item === undefined) return undefined;
    let removed: Record<string, AttributeValue> | undefined;
    try {
      const output = await this.#client.send(
        new DeleteItemCommand({
          TableName: this.#table,
          Key: key,
          ConditionExpression: 'attribute_exists(#sk)',
          ExpressionAttributeNames: { '#sk': 'eventId' },
          ReturnValues: 'ALL_OLD',
        }),
        this.#opts(),
      );
      removed = output.Attributes;
    } catch (error) {
      if ((error as { name?: unknown }).name === 'ConditionalCheckFailedException') return undefined;
      throw error;
    }
    if (removed === undefined) return undefined;
    // Expiry checked on read: the TTL sweep deletes late.
    if (Number(removed['expiresAt']?.N) * 1000 <= this.#clock()) return undefined;
    return parseReply(removed['reply']?.S);
  }

  #key(sessionId: string, requestId: string): Record<string, AttributeValue> {
    return { sessionId: { S: sessionId }, eventId: { S: `${REPLY_PREFIX}${requestId}` } };
  }

  #opts(): { abortSignal: AbortSignal } {
    return { abortSignal: AbortSignal.timeout(this.#timeoutMs) };
  }
}

function parseReply(raw: string | undefined): ClientReply {
  try {
    const value: unknown = JSON.parse(raw ?? '');
    if (isReply(value)) return value;
  } catch (cause) {
    throw new StreamStoreError('corrupt_item', 'stored client reply is not JSON', { cause });
  }
  throw new StreamStoreError('corrupt_item', 'stored client reply has neither result nor error');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What `put` writes: `{ result: {...} }` or `{ error: {...} }`. */
function isReply(value: unknown): value is ClientReply {
  return isObject(value) && (isObject(value.result) || isObject(value.error));
}
