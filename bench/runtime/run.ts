/**
 * `npm run bench:runtime`: `tools/call` of an `echo` tool through our runtime on `serveNode` versus the
 * official SDK's stateless Streamable HTTP transport on `node:http` (see servers.ts), same load generator
 * (autocannon), same body and headers, alternating rounds in one run. Prints a table and one JSON line.
 *
 * Fairness: our side initialises ONE session before the rounds and every call reuses its id (the
 * session-ful shape's steady state: one store read + sliding refresh per call). The SDK side is
 * stateless and ignores the `mcp-session-id` header, so both sides receive byte-identical requests.
 * Target: ours ≥ 1.5× the SDK's req/s with a lower p99. Not a test: nothing here fails a build.
 *
 * Knobs: BENCH_DURATION (s per round, 5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (16).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

type Side = 'ours' | 'sdk';

interface Round {
  side: Side;
  round: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
}

const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PROTOCOL = '2025-11-25';
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message: 'hello from the benchmark' } },
});

async function startChild(side: Side): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./serve-one.ts', import.meta.url).pathname, side],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

/** One initialize + initialized on our side; the returned headers are then used for both sides. */
async function sessionHeaders(oursUrl: string): Promise<Record<string, string>> {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(oursUrl, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  const sessionId = init.headers.get('mcp-session-id');
  await init.text();
  if (sessionId === null) throw new Error(`initialize returned no session id (HTTP ${init.status})`);
  const headers = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL };
  const initialized = await fetch(oursUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return headers;
}

/** Both sides must answer the exact request correctly before anything is measured. */
async function assertEchoes(side: Side, url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers, body: CALL });
  const body = (await response.json()) as { result?: { content?: { text?: string }[] } };
  if (response.status !== 200 || body.result?.content?.[0]?.text !== 'hello from the benchmark') {
    throw new Error(`${side} answered HTTP ${response.status}: ${JSON.stringify(body)}`);
  }
}

async function measure(
  side: Side,
  url: string,
  headers: Record<string, string>,
  round: number,
): Promise<Round> {
  const result = await autocannon({ url, method: 'POST', headers, body: CALL, connections, duration });
  return {
    side,
    round,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);

function summarise(
  results: Round[],
  side: Side,
): { reqPerSec: number; p50: number; p99: number; errors: number } {
  const mine = results.filter((r) => r.side === side);
  return {
    reqPerSec: Math.round(mean(mine.map((r) => r.reqPerSec))),
    p50: mean(mine.map((r) => r.p50)),
    p99: mean(mine.map((r) => r.p99)),
    errors: mine.reduce((a, r) => a + r.errors, 0),
  };
}

const ours = await startChild('ours');
const sdk = await startChild('sdk');
try {
  const headers = await sessionHeaders(ours.url);
  await assertEchoes('ours', ours.url, headers);
  await assertEchoes('sdk', sdk.url, headers);
  // Warm-up: JIT both code paths before anything counts.
  await autocannon({ url: ours.url, method: 'POST', headers, body: CALL, connections, duration: 2 });
  await autocannon({ url: sdk.url, method: 'POST', headers, body: CALL, connections, duration: 2 });

  const results: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Alternate who goes first so drift (thermal, other tenants) does not favour one side.
    const order: Side[] = round % 2 === 1 ? ['ours', 'sdk'] : ['sdk', 'ours'];
    for (const side of order)
      results.push(await measure(side, side === 'ours' ? ours.url : sdk.url, headers, round));
  }

  const lines = ['side  round     req/s   p50 ms   p99 ms  errors'];
  for (const r of results) {
    lines.push(
      `${r.side.padEnd(5)} ${String(r.round).padStart(5)} ${r.reqPerSec.toFixed(0).padStart(9)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.errors).padStart(7)}`,
    );
  }
  const a = summarise(results, 'ours');
  const b = summarise(results, 'sdk');
  const ratio = a.reqPerSec / Math.max(b.reqPerSec, 1);
  lines.push(`mean  ours ${a.reqPerSec} req/s p50 ${a.p50.toFixed(2)} p99 ${a.p99.toFixed(2)}`);
  lines.push(`mean  sdk  ${b.reqPerSec} req/s p50 ${b.p50.toFixed(2)} p99 ${b.p99.toFixed(2)}`);
  lines.push(`ratio ours/sdk req/s ${ratio.toFixed(2)}x (target >= 1.5x, lower p99)`);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'runtime',
      tool: 'echo',
      connections,
      durationSec: duration,
      rounds,
      ours: a,
      sdk: b,
      ratio: Number(ratio.toFixed(3)),
      targetMet: ratio >= 1.5 && a.p99 < b.p99,
    })}\n`,
  );
} finally {
  for (const { child } of [ours, sdk]) child.stdin?.end();
  await Promise.all([once(ours.child, 'exit'), once(sdk.child, 'exit')]);
}
