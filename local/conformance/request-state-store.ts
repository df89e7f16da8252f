/**
 * A `RequestStateStore` on the local stack's DynamoDB streams table, for `CONFORMANCE_VIA=lambda` only:
 * the local stack runs several execution environments, and a multi-round retry may reach any of them,
 * so the single-use ledger must be shared (docs/mcp-runtime.md "Multi-round input"). Items live in one
 * partition (`sessionId = "request-state"`) under sort key `state#<key>` with `expiresAt` (epoch
 * seconds, the table's TTL attribute). This is test wiring, not the deployable store: the runtime only
 * defines the port, and the DynamoDB-backed production store is separate work.
 */
import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { RequestStateStore } from '../../lambda/mcp/index.js';

const PARTITION = 'request-state';

/** Shared single-use ledger for the local conformance Lambda. */
export class LocalDynamoRequestStateStore implements RequestStateStore {
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
