/**
 * Warms DynamoDB Local before `bench:bos` measures. The benchmark starts a fresh DynamoDB Local (a Java
 * process) for each scenario and makes only a few dozen reads, so without this every measured grant read
 * runs on a JVM that has not compiled its read path yet: ~10 ms a `GetItem` when fresh, ~3.6 ms after a few
 * thousand reads (measured on this machine). A deployed function reads DynamoDB the managed service, which is
 * never cold in that sense; the warm-up reads come from the benchmark's own client, so the function under
 * test gets no head start (its SDK client and connection are still its own, warmed only by the warm-up rounds
 * every scenario already runs).
 */
import { GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';

import { createDynamoDbClient } from '../../lambda/aws/index.js';

/** What the warm-up did: reads made and the median latency of the last hundred, in ms. */
export interface WarmupSummary {
  reads: number;
  lastMedianMs: number;
}

/**
 * Reads real items of `table` (the directory: the grant and context items the calls read) back to back for
 * `durationMs`, or `reads` times, whichever comes first.
 */
export async function warmDynamoDbLocal(
  endpoint: string,
  table: string,
  { durationMs = 8_000, reads = 5_000 }: { durationMs?: number; reads?: number } = {},
): Promise<WarmupSummary> {
  const client = createDynamoDbClient({ endpoint, maxAttempts: 1, requestTimeoutMs: 5_000 });
  try {
    const scanned = await client.send(new ScanCommand({ TableName: table, Limit: 50 }));
    const keys = (scanned.Items ?? []).map((item) => ({ pk: item['pk']!, sk: item['sk']! }));
    if (keys.length === 0) return { reads: 0, lastMedianMs: NaN };
    const until = performance.now() + durationMs;
    const latencies: number[] = [];
    for (let i = 0; i < reads && performance.now() < until; i++) {
      const started = performance.now();
      await client.send(
        new GetItemCommand({ TableName: table, Key: keys[i % keys.length]!, ConsistentRead: true }),
      );
      latencies.push(performance.now() - started);
    }
    const last = latencies.slice(-100).sort((a, b) => a - b);
    return { reads: latencies.length, lastMedianMs: last[Math.floor(last.length / 2)] ?? NaN };
  } finally {
    client.destroy();
  }
}
