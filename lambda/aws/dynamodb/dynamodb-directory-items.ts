/**
 * The BOS directory's item store on DynamoDB (`BOS_DIRECTORY_TABLE`, `pk`/`sk`). It reads and writes plain
 * items and knows nothing of contexts or grants: `lambda/aws` may import only `lambda/mcp` (DESIGN §2), so
 * the meaning of items lives in `lambda/bos/directory/items.ts`, whose `DirectoryItemsReader` port this
 * class matches structurally. The composition root passes it to `createItemsDirectory`.
 */
import { BatchWriteItemCommand, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient, WriteRequest } from '@aws-sdk/client-dynamodb';
import { fromAttributeMap, toAttributeMap } from './dynamodb-plain-value.js';

/** A stored item: `pk`, `sk` and plain JSON attributes. */
export type PlainItem = { readonly pk: string; readonly sk: string } & Readonly<Record<string, unknown>>;

/** Options for {@link DynamoDbDirectoryItems}. */
export interface DynamoDbDirectoryItemsOptions {
  /** Prefer `createDynamoDbClient`, which fails fast. */
  client: DynamoDBClient;
  tableName: string;
  /** Hard bound on one call, retries and pages included. @default 2000 */
  operationTimeoutMs?: number;
}

// BatchWriteItem takes at most 25 requests (DynamoDB API reference, BatchWriteItem).
const BATCH = 25;

/** Plain-item access to the directory table. Reads are strongly consistent: a revoked grant is gone at once. */
export class DynamoDbDirectoryItems {
  readonly #client: DynamoDBClient;
  readonly #table: string;
  readonly #timeoutMs: number;

  constructor(options: DynamoDbDirectoryItemsOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#timeoutMs = options.operationTimeoutMs ?? 2000;
  }

  /** Items of partition `pk` whose `sk` begins with `skPrefix`, in sort-key order, every page. */
  async query(pk: string, skPrefix: string): Promise<PlainItem[]> {
    const abortSignal = AbortSignal.timeout(this.#timeoutMs);
    const items: PlainItem[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const output = await this.#client.send(
        new QueryCommand({
          TableName: this.#table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': { S: pk }, ':prefix': { S: skPrefix } },
          ConsistentRead: true,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
        { abortSignal },
      );
      for (const item of output.Items ?? []) items.push(fromAttributeMap(item) as PlainItem);
      start = output.LastEvaluatedKey;
    } while (start !== undefined);
    return items;
  }

  async get(pk: string, sk: string): Promise<PlainItem | undefined> {
    const output = await this.#client.send(
      new GetItemCommand({
        TableName: this.#table,
        Key: { pk: { S: pk }, sk: { S: sk } },
        ConsistentRead: true,
      }),
      { abortSignal: AbortSignal.timeout(this.#timeoutMs) },
    );
    return output.Item === undefined ? undefined : (fromAttributeMap(output.Item) as PlainItem);
  }

  /**
   * Upserts items in batches of 25, re-sending what DynamoDB returns as unprocessed (throttling) with a
   * short backoff. Used by seeding, not by the Lambda.
   */
  async putAll(items: readonly PlainItem[]): Promise<void> {
    for (let i = 0; i < items.length; i += BATCH) {
      let pending: WriteRequest[] = items
        .slice(i, i + BATCH)
        .map((item) => ({ PutRequest: { Item: toAttributeMap(item) } }));
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        if (attempt > 8) throw new Error(`DynamoDB left ${pending.length} directory items unprocessed`);
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        const output = await this.#client.send(
          new BatchWriteItemCommand({ RequestItems: { [this.#table]: pending } }),
        );
        pending = output.UnprocessedItems?.[this.#table] ?? [];
      }
    }
  }
}
