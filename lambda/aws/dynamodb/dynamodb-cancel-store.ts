/**
 * The runtime's `CancelStore` on the DynamoDB streams table: a `notifications/cancelled` served by one
 * execution environment leaves a marker that the call it names, running in another, polls for
 * (docs/mcp-runtime.md "Cancellation"). One item per marker, in its own partition (`sessionId =
 * "cancel#<key>"`, so polls spread over partitions) under sort key `marker`, with `cancelledAt` (N, epoch
 * ms) and `expiresAt` (N, epoch seconds, the table's TTL attribute). The key is the runtime's digest of
 * principal, session and request id, never those values.
 */
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CancelMarker, CancelStore } from '../../mcp/index.js';

/** Options for {@link DynamoDbCancelStore}. */
export interface DynamoDbCancelStoreOptions {
  /** Prefer `createDynamoDbClient`, which fails fast. */
  client: DynamoDBClient;
  /** The streams table (`MCP_STREAM_TABLE`). */
  tableName: string;
  /** Hard bound on one DynamoDB call, retries included. @default 2000 */
  operationTimeoutMs?: number;
}

/** DynamoDB implementation of the runtime's `CancelStore` port. */
export class DynamoDbCancelStore implements CancelStore {
  readonly #client: DynamoDBClient;
  readonly #table: string;
  readonly #timeoutMs: number;

  constructor(options: DynamoDbCancelStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#timeoutMs = options.operationTimeoutMs ?? 2000;
  }

  async put(key: string, marker: CancelMarker): Promise<void> {
    await this.#client.send(
      new PutItemCommand({
        TableName: this.#table,
        Item: {
          ...this.#key(key),
          cancelledAt: { N: String(marker.cancelledAt) },
          expiresAt: { N: String(Math.ceil(marker.expiresAt / 1000)) },
        },
      }),
      { abortSignal: AbortSignal.timeout(this.#timeoutMs) },
    );
  }

  /** A strongly consistent read: the marker must be seen on the next poll after it was written. */
  async get(key: string): Promise<CancelMarker | undefined> {
    const found = await this.#client.send(
      new GetItemCommand({ TableName: this.#table, Key: this.#key(key), ConsistentRead: true }),
      { abortSignal: AbortSignal.timeout(this.#timeoutMs) },
    );
    const cancelledAt = Number(found.Item?.['cancelledAt']?.N);
    const expiresAt = Number(found.Item?.['expiresAt']?.N) * 1000;
    if (!Number.isFinite(cancelledAt) || !Number.isFinite(expiresAt)) return undefined;
    return { cancelledAt, expiresAt };
  }

  #key(key: string): Record<string, AttributeValue> {
    return { sessionId: { S: `cancel#${key}` }, eventId: { S: 'marker' } };
  }
}
