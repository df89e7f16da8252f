/**
 * The runtime's `RateCounterStore` on its own DynamoDB table (`MCP_RATE_LIMIT_TABLE`): one item per bucket and
 * window, `counterId = "<bucket key>#<window start>"`, holding `requests` and `expiresAt` (epoch seconds, the
 * table's TTL attribute). One conditional `UpdateItem` per request and bucket both checks and counts, atomically
 * for every execution environment: `ADD` creates the item on the window's first request, and the condition
 * refuses the write (`ConditionalCheckFailedException`) once the window holds `limit` requests, so a refused
 * request is never counted. `release` gives a count back with `ADD -1` (a request another bucket refused).
 * An old window's item is never read again; TTL removes it.
 */
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { RateCounterStore } from '../../mcp/index.js';

/** Options of {@link DynamoDbRateCounterStore}. */
export interface DynamoDbRateCounterStoreOptions {
  client: DynamoDBClient;
  tableName: string;
}

/** Shared fixed-window counters. */
export class DynamoDbRateCounterStore implements RateCounterStore {
  readonly #client: DynamoDBClient;
  readonly #table: string;

  constructor(options: DynamoDbRateCounterStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
  }

  async take(key: string, windowStart: number, limit: number, expiresAt: number): Promise<boolean> {
    try {
      await this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
          Key: { counterId: { S: `${key}#${windowStart}` } },
          UpdateExpression: 'ADD #requests :one SET #expiresAt = if_not_exists(#expiresAt, :expiresAt)',
          ConditionExpression: 'attribute_not_exists(#requests) OR #requests < :limit',
          ExpressionAttributeNames: { '#requests': 'requests', '#expiresAt': 'expiresAt' },
          ExpressionAttributeValues: {
            ':one': { N: '1' },
            ':limit': { N: String(limit) },
            ':expiresAt': { N: String(expiresAt) },
          },
          // Nothing is read back: the answer is whether the condition held.
          ReturnValues: 'NONE',
        }),
      );
      return true;
    } catch (error) {
      if ((error as { name?: unknown }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async release(key: string, windowStart: number): Promise<void> {
    try {
      await this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
          Key: { counterId: { S: `${key}#${windowStart}` } },
          UpdateExpression: 'ADD #requests :minusOne',
          // Never creates a counter: TTL may already have removed this window's item.
          ConditionExpression: 'attribute_exists(#requests)',
          ExpressionAttributeNames: { '#requests': 'requests' },
          ExpressionAttributeValues: { ':minusOne': { N: '-1' } },
          ReturnValues: 'NONE',
        }),
      );
    } catch (error) {
      if ((error as { name?: unknown }).name !== 'ConditionalCheckFailedException') throw error;
    }
  }
}
