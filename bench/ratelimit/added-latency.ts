/**
 * What the rate limiter adds to a request, through the whole local stack (REST v1 front, the bundled platform
 * under the runtime client, DynamoDB Local): two stacks side by side in one run, one with both limits on (one
 * conditional `UpdateItem` per bucket, the two sent together) and one without, each answering the same
 * stateless `tools/list` (authenticated, no store of its own), requests alternated between the two so the
 * machine's load falls on both alike. The limits are set far above what the run sends, so every request is
 * counted and none refused. For scale it also times the store calls alone from this process against the limited
 * stack's DynamoDB Local, alternated with the requests: one `UpdateItem` as the limiter sends it, and two sent
 * together (what a request with both buckets waits for). Prints a table and one JSON line; asserts nothing.
 * Knobs: `BENCH_REQUESTS` (400 measured per side), `BENCH_WARMUP` (200 per side, not measured: DynamoDB
 * Local's JVM and each environment's connection warm up first), `BENCH_BUCKETS` (`both`, or `principal`: the
 * per-principal limit alone, one `UpdateItem` per request).
 */
import { loadavg } from 'node:os';
import { createDynamoDbClient, DynamoDbRateCounterStore } from '../../lambda/aws/index.js';
import { type LocalStack, startStack } from '../../local/stack.js';

const requests = Number(process.env['BENCH_REQUESTS'] ?? 400);
const warmup = Number(process.env['BENCH_WARMUP'] ?? 200);

const buckets = process.env['BENCH_BUCKETS'] === 'principal' ? 'principal' : 'both';

const LIMITED_ENV = {
  MCP_RATE_LIMIT_PRINCIPAL: '1000000',
  MCP_RATE_LIMIT_TENANT: buckets === 'both' ? '1000000' : '0',
  MCP_RATE_LIMIT_WINDOW_SECONDS: '3600',
};

async function start(name: string, env: Record<string, string>): Promise<LocalStack> {
  return startStack({
    bundleDir: `.local/bench-bundles/ratelimit-${name}`,
    poolSize: 1,
    concurrency: 2,
    completionInvocations: false,
    env,
    onFunctionLog: () => undefined,
  });
}

/** One stateless `tools/list`; resolves to its wall time in ms, or throws on anything but a 200. */
async function toolsList(stack: LocalStack, token: string, id: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(stack.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${token}`,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  await response.text();
  if (response.status !== 200) throw new Error(`tools/list answered ${response.status}`);
  return performance.now() - started;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

interface Stat {
  name: string;
  p50: number;
  p90: number;
  p99: number;
}

async function main(): Promise<void> {
  const limited = await start('on', LIMITED_ENV);
  const plain = await start('off', {});
  try {
    const sides = [
      { name: 'limiter on', stack: limited, times: [] as number[] },
      { name: 'limiter off', stack: plain, times: [] as number[] },
    ];
    const client = createDynamoDbClient({ endpoint: limited.dynamoDbEndpoint!, maxAttempts: 1 });
    const store = new DynamoDbRateCounterStore({
      client,
      tableName: limited.environment['MCP_RATE_LIMIT_TABLE']!,
    });
    const windowStart = Date.now() - (Date.now() % 3_600_000);
    const expiresAt = Math.ceil(windowStart / 1000) + 7200;
    const floors = { one: [] as number[], two: [] as number[] };
    const timed = async (work: () => Promise<unknown>): Promise<number> => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const tokens = await Promise.all(
      sides.map(({ stack }) => stack.mintToken!('bench-user', { orgId: 'bench-tenant' })),
    );
    for (let i = 0; i < warmup + requests; i += 1) {
      // Alternate which side goes first, so neither always follows the other.
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) {
        const side = sides[index]!;
        const ms = await toolsList(side.stack, tokens[index]!, i);
        if (i >= warmup) side.times.push(ms);
      }
      const one = await timed(() => store.take('bench#p', windowStart, 1_000_000, expiresAt));
      const two = await timed(() =>
        Promise.all([
          store.take('bench#p', windowStart, 1_000_000, expiresAt),
          store.take('bench#t', windowStart, 1_000_000, expiresAt),
        ]),
      );
      if (i >= warmup) {
        floors.one.push(one);
        floors.two.push(two);
      }
    }
    client.destroy();
    const stats = [
      ...sides,
      { name: 'one UpdateItem, bench to DynamoDB Local', times: floors.one },
      { name: 'two UpdateItems sent together', times: floors.two },
    ].map(({ name, times }) => {
      const sorted = [...times].sort((a, b) => a - b);
      return { name, p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99) };
    });
    const [on, off, one, two] = stats as [Stat, Stat, Stat, Stat];
    const added = { p50: on.p50 - off.p50, p90: on.p90 - off.p90, p99: on.p99 - off.p99 };
    const rows: [string, string, string, string][] = [
      ['', 'p50 ms', 'p90 ms', 'p99 ms'],
      ...stats
        .slice(0, 2)
        .map((s): [string, string, string, string] => [
          s.name,
          round(s.p50).toFixed(2),
          round(s.p90).toFixed(2),
          round(s.p99).toFixed(2),
        ]),
      [
        'added by the limiter',
        round(added.p50).toFixed(2),
        round(added.p90).toFixed(2),
        round(added.p99).toFixed(2),
      ],
      ...stats
        .slice(2)
        .map((s): [string, string, string, string] => [
          s.name,
          round(s.p50).toFixed(2),
          round(s.p90).toFixed(2),
          round(s.p99).toFixed(2),
        ]),
    ];
    const width = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const row of rows)
      process.stdout.write(
        `${row.map((cell, c) => (c === 0 ? cell.padEnd(width[c]!) : cell.padStart(width[c]!))).join('  ')}\n`,
      );
    process.stdout.write(
      `${JSON.stringify({
        bench: 'ratelimit-added-latency',
        buckets,
        requestsPerSide: requests,
        warmupPerSide: warmup,
        limiterOn: { p50: round(on.p50), p90: round(on.p90), p99: round(on.p99) },
        limiterOff: { p50: round(off.p50), p90: round(off.p90), p99: round(off.p99) },
        oneUpdateItem: { p50: round(one.p50), p90: round(one.p90), p99: round(one.p99) },
        twoUpdateItemsTogether: { p50: round(two.p50), p90: round(two.p90), p99: round(two.p99) },
        addedMs: { p50: round(added.p50), p90: round(added.p90), p99: round(added.p99) },
        loadAverage1m: round(loadavg()[0] ?? NaN),
      })}\n`,
    );
  } finally {
    await Promise.all([limited.close(), plain.close()]);
  }
}

await main();
