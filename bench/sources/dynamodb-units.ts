/**
 * What DynamoDB charges for a piece of work, as the service itself reports it: a client middleware asks every
 * command for `ReturnConsumedCapacity: 'INDEXES'` and adds the units to the operation being measured, per table
 * and per index (DynamoDB Local reports them by the service's rules). Kept in `bench/`: the deployed store never
 * asks for consumed capacity.
 *
 * Storage is not in any response, so {@link itemBytes} computes an item's size by the documented rules
 * ("DynamoDB item sizes and formats": attribute name bytes + value bytes; a number is about one byte per two
 * significant digits plus one), to which DynamoDB adds 100 bytes of index overhead per stored item.
 */
import { DescribeTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, ConsumedCapacity, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TableSchema } from '../../lib/table-schemas.js';

/** Units by where they were spent: `table` or an index name. */
export type Units = Record<string, number>;

/** One measured operation. */
export interface Tally {
  readonly label: string;
  /** DynamoDB requests by command (`QueryCommand: 501`). */
  readonly requests: Record<string, number>;
  /** Read request units (on-demand; read capacity units when provisioned). */
  readonly read: Units;
  /** Write request units. */
  readonly write: Units;
  wallMs: number;
}

const READS = new Set(['GetItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand']);

/** Bytes DynamoDB stores per item for its indexes, on top of the item's own size. */
export const ITEM_OVERHEAD_BYTES = 100;

const add = (units: Units, where: string, value: number | undefined) => {
  if (value !== undefined && value > 0) units[where] = (units[where] ?? 0) + value;
};

/** Meters every command `client` sends from now on; {@link measure} says which operation they belong to. */
export function meterCapacity(client: DynamoDBClient) {
  let current: Tally | undefined;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = { ...args.input, ReturnConsumedCapacity: 'INDEXES' };
      const result = await next({ ...args, input });
      const tally = current;
      if (tally === undefined) return result;
      const command = context.commandName ?? 'unknown';
      tally.requests[command] = (tally.requests[command] ?? 0) + 1;
      const units = READS.has(command) ? tally.read : tally.write;
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      for (const capacity of [consumed ?? []].flat()) {
        add(units, 'table', capacity.Table?.CapacityUnits);
        for (const [index, spent] of Object.entries(capacity.GlobalSecondaryIndexes ?? {}))
          add(units, index, spent.CapacityUnits);
      }
      return result;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
  return {
    /** Runs `work` as one operation and returns what it consumed. */
    measure: async <T>(label: string, work: () => Promise<T>): Promise<{ tally: Tally; value: T }> => {
      const tally: Tally = { label, requests: {}, read: {}, write: {}, wallMs: 0 };
      current = tally;
      const started = performance.now();
      try {
        const value = await work();
        tally.wallMs = performance.now() - started;
        return { tally, value };
      } finally {
        current = undefined;
      }
    },
  };
}

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number's size: one byte per two significant digits (leading and trailing zeros trimmed), plus one. */
function numberBytes(text: string): number {
  const digits = text.replace(/^[-+]/, '').replace('.', '').replace(/e.*$/i, '');
  const significant = digits.replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(significant.length, 1) / 2) + 1;
}

/** An item's size by DynamoDB's rules, for the attribute types the baseline table holds (S and N). */
export function itemBytes(item: Record<string, AttributeValue>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value.S !== undefined) bytes += utf8(name) + utf8(value.S);
    else if (value.N !== undefined) bytes += utf8(name) + numberBytes(value.N);
    else throw new Error(`attribute ${name}: only S and N are sized here`);
  }
  return bytes;
}

/** Sum of every place's units. */
export const total = (units: Units): number => Object.values(units).reduce((a, b) => a + b, 0);

type Item = Record<string, AttributeValue>;

/** Every item of a table (for sizing: send it on a client that is not metered). */
async function scanAll(client: DynamoDBClient, table: string): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
}

/**
 * The storage of the items `select` picks, by the item-size rules, in the table and in each of its indexes
 * (all of which project every attribute: an item holding an index's key is stored there whole once more);
 * the write units their puts cost (one per started KB, in the table and in each index holding it); and what
 * DescribeTable reports beside it.
 */
export async function storageOf(
  client: DynamoDBClient,
  table: string,
  schema: TableSchema,
  select: (item: Item) => boolean,
) {
  const items = (await scanAll(client, table)).filter(select);
  const bytes: Record<string, number> = { table: 0 };
  let itemBytesTotal = 0;
  let putUnits = 0;
  for (const item of items) {
    const size = itemBytes(item);
    const held = (schema.globalSecondaryIndexes ?? []).filter((i) => item[i.partitionKey.name] !== undefined);
    for (const place of ['table', ...held.map((index) => index.name)])
      bytes[place] = (bytes[place] ?? 0) + size + ITEM_OVERHEAD_BYTES;
    itemBytesTotal += size;
    putUnits += Math.ceil(size / 1024) * (1 + held.length);
  }
  const { Table: described } = await client.send(new DescribeTableCommand({ TableName: table }));
  const indexSizes = (described?.GlobalSecondaryIndexes ?? []).map((i): [string, number] => [
    i.IndexName ?? '',
    i.IndexSizeBytes ?? 0,
  ]);
  return {
    items: items.length,
    bytes,
    totalBytes: total(bytes),
    averageItemBytes: itemBytesTotal / items.length,
    putUnits,
    /** One eventually consistent read of every item: half a unit per 4 KB read. */
    readAllUnits: itemBytesTotal / 4096 / 2,
    describeTable: {
      table: described?.TableSizeBytes ?? 0,
      ...Object.fromEntries(indexSizes),
    },
  };
}
