/**
 * The source cache's baseline store on the baseline table (`pk` S + `sk` S, `lib/table-schemas.ts`).
 *
 * | item       | `pk`              | `sk`           | attributes                                                              |
 * | ---------- | ----------------- | -------------- | ----------------------------------------------------------------------- |
 * | sync state | `SOURCE#<id>`     | `STATE`        | `status`, `watermark?`, `lastFullSyncAt?`, `lastDeltaSyncAt?`, `recordCount`, `checkpoint?`, `leaseOwner?`, `leaseExpiresAt?` |
 * | record     | `SOURCE#<id>`     | `R#<ext id>`   | `record` (the raw record as JSON), `syncId?`, `refKey`, `emailKey?`, `phoneKey?` |
 * | registry   | `SOURCES`         | `<id>`         | — (one per source with a state item: what `sourceIds` lists)           |
 *
 * The three key attributes are `<id>#<value>` and feed the sparse indexes `byRef`, `byEmail` and `byPhone`, so
 * a lookup is a keyed Query on one source's values, never a Scan. `lambda/aws` may not import the sources'
 * port (DESIGN §2): the shapes below match `lambda/sources/cache/port.ts` structurally and the composition root
 * joins them; it also supplies `indexKeys`, since normalising an email or computing a record ref is the
 * federation's rule, not this room's.
 *
 * Record reads are eventually consistent (half the read units; a baseline is minutes old by design); the
 * state item is read strongly consistent, since a lease decides on it.
 */
import {
  BatchWriteItemCommand,
  GetItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type {
  AttributeValue,
  BatchWriteItemCommandOutput,
  DynamoDBClient,
  GetItemCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { StoreUnavailableError } from '../../mcp/index.js';
import { storeFailure } from './store-outage.js';

/** The record shape the store keeps: what it needs to key it, plus anything else as JSON. */
export interface StoredRecord {
  readonly external_id: string;
}

/** The keys a record is found by (`BaselineLookup`). */
export interface StoredLookup {
  readonly recordRef?: string;
  readonly email?: string;
  readonly phone?: string;
}

/** The sync-state item (`BaselineState`). */
export interface StoredState {
  readonly sourceId: string;
  readonly status: 'empty' | 'syncing' | 'ready' | 'failed';
  readonly watermark?: string;
  readonly lastFullSyncAt?: string;
  readonly lastDeltaSyncAt?: string;
  readonly recordCount: number;
  readonly checkpoint?: string;
}

/** A sync lease (`SyncLease`). */
export interface StoredLease {
  readonly sourceId: string;
  readonly owner: string;
  readonly expiresAt: number;
}

/** Options of {@link DynamoDbBaselineStore}. */
export interface DynamoDbBaselineStoreOptions<R extends StoredRecord> {
  client: DynamoDBClient;
  tableName: string;
  /** The record's own record ref and normalised email and phone (the federation's identity keys). */
  indexKeys: (record: R) => StoredLookup;
  /** @default Date.now */
  now?: () => number;
}

type Item = Record<string, AttributeValue>;

const STATE_SK = 'STATE';
const REGISTRY_PK = 'SOURCES';
const RECORD_PREFIX = 'R#';
/** BatchWriteItem takes at most 25 requests. */
const BATCH = 25;
/** Tries of a batch whose items DynamoDB left unprocessed (throttling) before the write fails. */
const UNPROCESSED_TRIES = 8;
const STATE_FIELDS = ['status', 'watermark', 'lastFullSyncAt', 'lastDeltaSyncAt', 'checkpoint'] as const;
const INDEXES = [
  ['recordRef', 'refKey', 'byRef'],
  ['email', 'emailKey', 'byEmail'],
  ['phone', 'phoneKey', 'byPhone'],
] as const;

const partition = (sourceId: string): string => `SOURCE#${sourceId}`;

/** A failed call as the store's callers see it: a refusal, or the one outage error (cause kept, never shown). */
const failure = (error: unknown): Error =>
  storeFailure(
    'baseline',
    error,
    (cause) => new StoreUnavailableError('baseline', 'baseline store unavailable', { cause }),
  );

/** DynamoDB implementation of the source cache's `BaselineStore` port. */
export class DynamoDbBaselineStore<R extends StoredRecord> {
  readonly #client: DynamoDBClient;
  readonly #table: string;
  readonly #indexKeys: (record: R) => StoredLookup;
  readonly #now: () => number;

  constructor(options: DynamoDbBaselineStoreOptions<R>) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#indexKeys = options.indexKeys;
    this.#now = options.now ?? Date.now;
  }

  async readState(sourceId: string): Promise<StoredState | undefined> {
    const { Item: item } = await this.#send<GetItemCommandOutput>(
      new GetItemCommand({
        TableName: this.#table,
        Key: { pk: { S: partition(sourceId) }, sk: { S: STATE_SK } },
        ConsistentRead: true,
      }),
    );
    if (item?.['status']?.S === undefined) return undefined;
    const state: Record<string, unknown> = { sourceId, recordCount: Number(item['recordCount']?.N ?? 0) };
    for (const field of STATE_FIELDS) if (item[field]?.S !== undefined) state[field] = item[field].S;
    return state as unknown as StoredState;
  }

  /** Replaces the state's fields; the lease attributes on the same item are left as they are. */
  async writeState(state: StoredState): Promise<void> {
    const set = ['recordCount = :recordCount'];
    const remove: string[] = [];
    const values: Item = { ':recordCount': { N: String(state.recordCount) } };
    // Names through placeholders: `status` is one of DynamoDB's reserved words.
    const names: Record<string, string> = {};
    for (const field of STATE_FIELDS) {
      const value = state[field];
      names[`#${field}`] = field;
      if (value === undefined) remove.push(`#${field}`);
      else {
        set.push(`#${field} = :${field}`);
        values[`:${field}`] = { S: value };
      }
    }
    await this.#send<unknown>(
      new UpdateItemCommand({
        TableName: this.#table,
        Key: { pk: { S: partition(state.sourceId) }, sk: { S: STATE_SK } },
        UpdateExpression: `SET ${set.join(', ')}${remove.length === 0 ? '' : ` REMOVE ${remove.join(', ')}`}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    await this.#write([{ PutRequest: { Item: { pk: { S: REGISTRY_PK }, sk: { S: state.sourceId } } } }]);
  }

  async sourceIds(): Promise<readonly string[]> {
    const items = await this.#collect({
      TableName: this.#table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: REGISTRY_PK } },
      ProjectionExpression: 'sk',
    });
    return items.map((item) => item['sk']?.S ?? '');
  }

  async acquireLease(sourceId: string, owner: string, ttlMs: number): Promise<StoredLease | undefined> {
    const now = this.#now();
    const lease = { sourceId, owner, expiresAt: now + ttlMs };
    try {
      await this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
          Key: { pk: { S: partition(sourceId) }, sk: { S: STATE_SK } },
          UpdateExpression: 'SET leaseOwner = :owner, leaseExpiresAt = :expires',
          // Free, expired (a worker that died keeps nobody out for longer than its lease), or already ours.
          ConditionExpression:
            'attribute_not_exists(leaseOwner) OR leaseExpiresAt < :now OR leaseOwner = :owner',
          ExpressionAttributeValues: {
            ':owner': { S: owner },
            ':expires': { N: String(lease.expiresAt) },
            ':now': { N: String(now) },
          },
        }),
      );
      return lease;
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return undefined;
      throw failure(error);
    }
  }

  async releaseLease(lease: StoredLease): Promise<void> {
    try {
      await this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
          Key: { pk: { S: partition(lease.sourceId) }, sk: { S: STATE_SK } },
          UpdateExpression: 'REMOVE leaseOwner, leaseExpiresAt',
          ConditionExpression: 'leaseOwner = :owner',
          ExpressionAttributeValues: { ':owner': { S: lease.owner } },
        }),
      );
    } catch (error) {
      // Taken over after it expired: the lease is no longer ours to release.
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return;
      throw failure(error);
    }
  }

  async *readPages(
    sourceId: string,
    pageSize: number,
    signal: AbortSignal,
    firstPageSize = pageSize,
  ): AsyncIterable<readonly R[]> {
    // Only the record itself is read back: the key and index attributes would add bytes to every page.
    const query = this.#recordQuery(sourceId, {
      ProjectionExpression: '#record',
      ExpressionAttributeNames: { '#record': 'record' },
    });
    for await (const items of this.#pages(query, signal, [firstPageSize, pageSize]))
      if (items.length > 0) yield items.map((item) => this.#record(item));
  }

  async lookup(sourceId: string, lookup: StoredLookup): Promise<readonly R[]> {
    const queries = INDEXES.flatMap(([field, attribute, index]) => {
      const value = lookup[field];
      if (value === undefined) return [];
      return [
        this.#collect({
          TableName: this.#table,
          IndexName: index,
          KeyConditionExpression: `${attribute} = :key`,
          ExpressionAttributeValues: { ':key': { S: `${sourceId}#${value}` } },
        }),
      ];
    });
    const found = new Map<string, R>();
    for (const items of await Promise.all(queries))
      for (const item of items) {
        const record = this.#record(item);
        found.set(record.external_id, record);
      }
    return [...found.values()];
  }

  async put(sourceId: string, records: readonly R[], syncId?: string): Promise<void> {
    await this.#write(
      records.map((record) => ({ PutRequest: { Item: this.#recordItem(sourceId, record, syncId) } })),
    );
  }

  async remove(sourceId: string, externalIds: readonly string[]): Promise<void> {
    await this.#write(
      externalIds.map((id) => ({
        DeleteRequest: { Key: { pk: { S: partition(sourceId) }, sk: { S: `${RECORD_PREFIX}${id}` } } },
      })),
    );
  }

  async sweep(sourceId: string, syncId: string): Promise<number> {
    const stale = await this.#collect(
      this.#recordQuery(sourceId, {
        FilterExpression: 'attribute_not_exists(syncId) OR syncId <> :sync',
        ExpressionAttributeValues: { ':sync': { S: syncId } },
        ProjectionExpression: 'pk, sk',
      }),
    );
    await this.#write(
      stale.map((item) => ({ DeleteRequest: { Key: { pk: item['pk']!, sk: item['sk']! } } })),
    );
    return stale.length;
  }

  async purge(sourceId: string): Promise<void> {
    const items = await this.#collect({
      TableName: this.#table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: partition(sourceId) } },
      ProjectionExpression: 'pk, sk',
    });
    const registry = { pk: { S: REGISTRY_PK }, sk: { S: sourceId } };
    await this.#write(
      [...items.map((item) => ({ pk: item['pk']!, sk: item['sk']! })), registry].map((Key) => ({
        DeleteRequest: { Key },
      })),
    );
  }

  #recordQuery(sourceId: string, extra: Partial<QueryCommandInput>): QueryCommandInput {
    return {
      TableName: this.#table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :records)',
      ...extra,
      ExpressionAttributeValues: {
        ':pk': { S: partition(sourceId) },
        ':records': { S: RECORD_PREFIX },
        ...extra.ExpressionAttributeValues,
      },
    };
  }

  #recordItem(sourceId: string, record: R, syncId: string | undefined): Item {
    const item: Item = {
      pk: { S: partition(sourceId) },
      sk: { S: `${RECORD_PREFIX}${record.external_id}` },
      record: { S: JSON.stringify(record) },
    };
    if (syncId !== undefined) item['syncId'] = { S: syncId };
    const keys = this.#indexKeys(record);
    for (const [field, attribute] of INDEXES) {
      const value = keys[field];
      if (value !== undefined) item[attribute] = { S: `${sourceId}#${value}` };
    }
    return item;
  }

  #record(item: Item): R {
    return JSON.parse(item['record']?.S ?? 'null') as R;
  }

  /**
   * Every page of a Query, following `LastEvaluatedKey` (each page is at most 1 MB); with `limits`, the first
   * page asks for at most `limits[0]` items and every later one for at most `limits[1]`.
   */
  async *#pages(
    input: QueryCommandInput,
    signal?: AbortSignal,
    limits?: readonly [number, number],
  ): AsyncIterable<Item[]> {
    let start: Item | undefined;
    do {
      signal?.throwIfAborted();
      const limit = limits?.[start === undefined ? 0 : 1];
      const page = await this.#send<QueryCommandOutput>(
        new QueryCommand({
          ...input,
          ...(limit === undefined ? {} : { Limit: limit }),
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
        signal,
      );
      yield page.Items ?? [];
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
  }

  async #collect(input: QueryCommandInput): Promise<Item[]> {
    const items: Item[] = [];
    for await (const page of this.#pages(input)) items.push(...page);
    return items;
  }

  async #write(requests: readonly WriteRequest[]): Promise<void> {
    for (let at = 0; at < requests.length; at += BATCH) {
      let pending = requests.slice(at, at + BATCH);
      for (let tries = 0; pending.length > 0; tries += 1) {
        if (tries === UNPROCESSED_TRIES) throw failure(new Error('DynamoDB left items unprocessed'));
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** tries));
        const output = await this.#send<BatchWriteItemCommandOutput>(
          new BatchWriteItemCommand({ RequestItems: { [this.#table]: pending } }),
        );
        pending = output.UnprocessedItems?.[this.#table] ?? [];
      }
    }
  }

  async #send<T>(command: object, signal?: AbortSignal): Promise<T> {
    try {
      // One generic path for every command type; the SDK's overloads do not accept a union of commands.
      const client = this.#client as unknown as {
        send(command: object, options: { abortSignal?: AbortSignal }): Promise<T>;
      };
      return await client.send(command, signal === undefined ? {} : { abortSignal: signal });
    } catch (error) {
      throw failure(error);
    }
  }
}
