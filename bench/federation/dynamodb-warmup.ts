/**
 * Warms DynamoDB Local before a benchmark measures (`bench:bos`, and `bench:lambda`'s cold start). The
 * benchmarks start a fresh DynamoDB Local (a Java process) and make only a few dozen calls, so without this
 * every measured call runs on a JVM that has not compiled its request path yet: ~10 ms a `GetItem` when
 * fresh, ~3.6 ms after a few thousand reads (measured on this machine). A deployed function calls DynamoDB
 * the managed service, which is never cold in that sense; the warm-up calls come from the benchmark's own
 * client, so the function under test gets no head start (its SDK client and connection are still its own).
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';

import { createDynamoDbClient } from '../../lambda/aws/index.js';

/** What the warm-up did: calls made and the median latency of the last hundred, in ms. */
export interface WarmupSummary {
  reads: number;
  lastMedianMs: number;
}

/** Bounds of one warm-up: it stops at `durationMs` or after `reads` calls, whichever comes first. */
export interface WarmupLimits {
  durationMs?: number;
  reads?: number;
}

type DynamoDbClient = ReturnType<typeof createDynamoDbClient>;

/** Runs `call(i)` back to back within the limits and summarises the latencies. */
async function timeBoxed(
  endpoint: string,
  { durationMs = 8_000, reads = 5_000 }: WarmupLimits,
  prepare: (client: DynamoDbClient) => Promise<((i: number) => Promise<unknown>) | undefined>,
  finish?: (client: DynamoDbClient, calls: number) => Promise<unknown>,
): Promise<WarmupSummary> {
  const client = createDynamoDbClient({ endpoint, maxAttempts: 1, requestTimeoutMs: 5_000 });
  try {
    const call = await prepare(client);
    if (call === undefined) return { reads: 0, lastMedianMs: NaN };
    const until = performance.now() + durationMs;
    const latencies: number[] = [];
    for (let i = 0; i < reads && performance.now() < until; i++) {
      const started = performance.now();
      await call(i);
      latencies.push(performance.now() - started);
    }
    await finish?.(client, latencies.length);
    const last = latencies.slice(-100).sort((a, b) => a - b);
    return { reads: latencies.length, lastMedianMs: last[Math.floor(last.length / 2)] ?? NaN };
  } finally {
    client.destroy();
  }
}

/**
 * Reads real items of `table` (the directory: the grant and context items the calls read) back to back for
 * `durationMs`, or `reads` times, whichever comes first.
 */
export async function warmDynamoDbLocal(
  endpoint: string,
  table: string,
  limits: WarmupLimits = {},
): Promise<WarmupSummary> {
  return timeBoxed(endpoint, limits, async (client) => {
    const scanned = await client.send(new ScanCommand({ TableName: table, Limit: 50 }));
    const keys = (scanned.Items ?? []).map((item) => ({ pk: item['pk']!, sk: item['sk']! }));
    if (keys.length === 0) return undefined;
    return (i) =>
      client.send(
        new GetItemCommand({ TableName: table, Key: keys[i % keys.length]!, ConsistentRead: true }),
      );
  });
}

/**
 * Writes, reads back and deletes throwaway items of `table` (keyed by the string attribute `partitionKey`,
 * e.g. the sessions table's `sessionId`), in that rotation, so the write path (`PutItem`, what `initialize`
 * does) warms as well as the read path. Every item it writes it deletes again; `reads` counts all three
 * kinds of call.
 */
export async function warmDynamoDbLocalWrites(
  endpoint: string,
  table: string,
  partitionKey: string,
  limits: WarmupLimits = {},
): Promise<WarmupSummary> {
  const prefix = `bench-warmup-${process.pid}-`;
  const key = (i: number) => ({ [partitionKey]: { S: `${prefix}${Math.floor(i / 3)}` } });
  // A warm-up cut short after a PutItem deletes that item too, so the table is left as it was found.
  const finish = (client: DynamoDbClient, calls: number) =>
    calls % 3 === 0
      ? Promise.resolve()
      : client.send(new DeleteItemCommand({ TableName: table, Key: key(calls - 1) }));
  const rotation = (client: DynamoDbClient) => (i: number) => {
    const Key = key(i);
    if (i % 3 === 0)
      return client.send(
        new PutItemCommand({
          TableName: table,
          Item: { ...Key, createdAt: { N: String(Date.now()) }, data: { M: { warmup: { S: 'yes' } } } },
        }),
      );
    if (i % 3 === 1) return client.send(new GetItemCommand({ TableName: table, Key, ConsistentRead: true }));
    return client.send(new DeleteItemCommand({ TableName: table, Key }));
  };
  return timeBoxed(endpoint, limits, (client) => Promise.resolve(rotation(client)), finish);
}
