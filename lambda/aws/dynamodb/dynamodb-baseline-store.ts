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
 * port (DESIGN §2): its shapes (`dynamodb-baseline-shapes.ts`) match the port structurally and the composition root
 * joins them; it also supplies `indexKeys`, since normalising an email or computing a record ref is the
 * federation's rule, not this room's.
 *
 * Record reads are eventually consistent (half the read units; a baseline is minutes old by design); the
 * state item, and the sweep that decides which records a full sync did not see, read strongly consistent.
 */
import {
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type {
  AttributeValue,
  DeleteItemCommandOutput,
  DynamoDBClient,
  GetItemCommandOutput,
  PutItemCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { StoreUnavailableError } from '../../mcp/index.js';
import type { StoredLease, StoredLookup, StoredRecord, StoredState } from './dynamodb-baseline-shapes.js';
import { BaselineTableRequests } from './dynamodb-baseline-table.js';
import { storeFailure } from './store-outage.js';

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
  readonly #io: BaselineTableRequests;
  readonly #indexKeys: (record: R) => StoredLookup;
  readonly #now: () => number;

  constructor(options: DynamoDbBaselineStoreOptions<R>) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#io = new BaselineTableRequests(options.client, options.tableName, failure);
    this.#indexKeys = options.indexKeys;
    this.#now = options.now ?? Date.now;
  }

  async readState(sourceId: string): Promise<StoredState | undefined> {
    const { Item: item } = await this.#io.send<GetItemCommandOutput>(
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
    await this.#io.send<unknown>(
      new UpdateItemCommand({
        TableName: this.#table,
        Key: { pk: { S: partition(state.sourceId) }, sk: { S: STATE_SK } },
        UpdateExpression: `SET ${set.join(', ')}${remove.length === 0 ? '' : ` REMOVE ${remove.join(', ')}`}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    await this.#io.write([{ PutRequest: { Item: { pk: { S: REGISTRY_PK }, sk: { S: state.sourceId } } } }]);
  }

  async sourceIds(): Promise<readonly string[]> {
    const items = await this.#io.collect({
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
    for await (const items of this.#io.pages(query, signal, [firstPageSize, pageSize]))
      if (items.length > 0) yield items.map((item) => this.#record(item));
  }

  async lookup(sourceId: string, lookup: StoredLookup): Promise<readonly R[]> {
    const queries = INDEXES.flatMap(([field, attribute, index]) => {
      const value = lookup[field];
      if (value === undefined) return [];
      return [
        this.#io.collect({
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
        // An index key is `<source id>#<value>`, and a value may hold `#` (an email's local part can): source
        // `a` looking up `b#c@d` meets source `a#b`'s `c@d`. Only this source's own partition answers.
        if (item['pk']?.S !== partition(sourceId)) continue;
        const record = this.#record(item);
        found.set(record.external_id, record);
      }
    return [...found.values()];
  }

  /** A full sync's records, stamped, in batches of 25 (BatchWriteItem says nothing of what it replaced). */
  async put(sourceId: string, records: readonly R[], syncId?: string): Promise<void> {
    await this.#io.write(
      records.map((record) => ({ PutRequest: { Item: this.#recordItem(sourceId, record, syncId) } })),
    );
  }

  /**
   * A delta's records, each a PutItem returning the item it replaced (`ALL_OLD`, which costs no extra
   * capacity): a record that replaced nothing is new to the baseline. Up to 25 calls at a time.
   */
  async upsert(sourceId: string, records: readonly R[]): Promise<number> {
    return this.#io.countEach(records, (record) =>
      this.#io.send<PutItemCommandOutput>(
        new PutItemCommand({
          TableName: this.#table,
          Item: this.#recordItem(sourceId, record, undefined),
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
  }

  /** Each a DeleteItem returning the item it deleted, so ids the baseline never held are not counted. */
  async remove(sourceId: string, externalIds: readonly string[]): Promise<number> {
    const deleted = await this.#io.countEach(externalIds, (id) =>
      this.#io.send<DeleteItemCommandOutput>(
        new DeleteItemCommand({
          TableName: this.#table,
          Key: { pk: { S: partition(sourceId) }, sk: { S: `${RECORD_PREFIX}${id}` } },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    return externalIds.length - deleted;
  }

  /**
   * One Query over the source's records, filtered to those another sync stamped. DynamoDB reads (and bills)
   * every record before the filter and says how many (`ScannedCount`), so the records kept are counted free.
   * Strongly consistent: an eventually consistent read just after the last page's write could return a
   * record's previous version, still stamped by the sync before, and the sweep would delete a record it saw.
   */
  async sweep(sourceId: string, syncId: string): Promise<{ removed: number; kept: number }> {
    const stale: Item[] = [];
    let scanned = 0;
    const input = this.#recordQuery(sourceId, {
      FilterExpression: 'attribute_not_exists(syncId) OR syncId <> :sync',
      ExpressionAttributeValues: { ':sync': { S: syncId } },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    });
    const count = (output: QueryCommandOutput) => (scanned += output.ScannedCount ?? 0);
    for await (const page of this.#io.pages(input, undefined, undefined, count)) stale.push(...page);
    await this.#io.write(
      stale.map((item) => ({ DeleteRequest: { Key: { pk: item['pk']!, sk: item['sk']! } } })),
    );
    return { removed: stale.length, kept: scanned - stale.length };
  }

  async purge(sourceId: string): Promise<void> {
    const items = await this.#io.collect({
      TableName: this.#table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: partition(sourceId) } },
      ProjectionExpression: 'pk, sk',
    });
    const registry = { pk: { S: REGISTRY_PK }, sk: { S: sourceId } };
    await this.#io.write(
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
}
