/**
 * The runtime's `RequestStateStore` on the DynamoDB streams table: a 2026-07-28 multi-round retry may
 * reach any execution environment, so the single-use ledger of issued `requestState` bindings must be
 * shared (docs/mcp-runtime.md "Multi-round input"). Items live in one partition
 * (`sessionId = "request-state"`) under sort key `state#<key>` — the key is an HMAC digest, never the
 * state — with `expiresAt` (epoch seconds, the table's TTL attribute). Expiry is checked on read because
 * DynamoDB's TTL sweep deletes late.
 */
import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { RequestStateStore } from '../../mcp/index.js';

const PARTITION = 'request-state';

/** Shared single-use ledger of issued `requestState` bindings. */
export class DynamoDbRequestStateStore implements RequestStateStore {
  readonly #client: DynamoDBClient;
  readonly #table: string;

  constructor(client: DynamoDBClient, tableName: string) {
    this.#client = client;
    this.#table = tableName;
  }

  async put(key: string, expiresAt: number): Promise<void> {
    await this.#client.send(
      new PutItemCommand({
        TableName: this.#table,
        Item: { ...this.#key(key), expiresAt: { N: String(Math.ceil(expiresAt / 1000)) } },
      }),
    );
  }

  /** A conditional delete returning the old item: of two concurrent takers only one succeeds. */
  async take(key: string, now: number): Promise<boolean> {
    let old: Record<string, AttributeValue> | undefined;
    try {
      const output = await this.#client.send(
        new DeleteItemCommand({
          TableName: this.#table,
          Key: this.#key(key),
          ConditionExpression: 'attribute_exists(#sk)',
          ExpressionAttributeNames: { '#sk': 'eventId' },
          ReturnValues: 'ALL_OLD',
        }),
      );
      old = output.Attributes;
    } catch (error) {
      if ((error as { name?: unknown }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
    // Expiry is checked on read: DynamoDB's TTL sweep deletes late.
    return old !== undefined && Number(old.expiresAt?.N) * 1000 > now;
  }

  #key(key: string): Record<string, AttributeValue> {
    return { sessionId: { S: PARTITION }, eventId: { S: `state#${key}` } };
  }
}
