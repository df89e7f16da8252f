/**
 * Time to first source page, streaming vs plain JSON, through the whole local stack (RIC + REST v1 front +
 * DynamoDB Local), side by side in one run on the demo directory and on the synthetic fixture preset
 * (issue 4 "Must show"; DESIGN §8: prints a table and one JSON line; never a timed test).
 *
 * Each round sends the same stateless (2026-07-28) `bos_execute` → `list_people` call in the People context
 * twice to a warm function: once with the `bos/source-results/v1` opt-in (time until the first `status: "page"` frame is
 * read) and once without (a client sees its first source page only with the whole JSON response). Targets:
 * streaming ≤ the fastest source's first-page latency + 25 ms, and ≥ 5× earlier than JSON.
 * Knobs: `BENCH_ROUNDS` (default 9), `BENCH_WARMUP` (default 2).
 */
import { loadavg } from 'node:os';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { fixturePreset } from '../../lambda/sources/index.js';
import type { FixturePresetName } from '../../lambda/sources/index.js';
import { startStack } from '../../local/stack.js';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 9);
const warmup = Number(process.env['BENCH_WARMUP'] ?? 2);
const OPT_IN_CAPABILITIES = { experimental: { 'bos/source-results/v1': {} } };
const CALL_ARGS = { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} };

interface Caller {
  url: string;
  headers: Record<string, string>;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};

/**
 * A stateless (2026-07-28) caller: every request carries its own protocol headers and `_meta`, so no
 * session lookup sits in front of the call and the stream is not written to the session's stream store.
 */
function statelessCaller(url: string, token: string): Caller {
  return {
    url,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${token}`,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'bos_execute',
    },
  };
}

/** ms from sending until the first source page is readable (streaming) or the JSON response is whole. */
async function firstPageMs(caller: Caller, id: number, stream: boolean): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'bos_execute',
      arguments: CALL_ARGS,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': stream ? OPT_IN_CAPABILITIES : {},
      },
    },
  });
  const sentAt = performance.now();
  const response = await fetch(caller.url, { method: 'POST', headers: caller.headers, body });
  if (response.status !== 200 || response.body === null) throw new Error(`HTTP ${response.status}`);
  if (!stream) {
    const message = (await response.json()) as { result?: unknown };
    if (message.result === undefined) throw new Error('no result');
    return performance.now() - sentAt;
  }
  let firstPage: number | undefined;
  let text = '';
  const decoder = new TextDecoder();
  // Read to the end so the next round starts on an idle function; only the first page's time counts.
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstPage !== undefined) continue;
    text += decoder.decode(value, { stream: true });
    if (text.includes('"status":"page"')) firstPage = performance.now() - sentAt;
  }
  if (firstPage === undefined) throw new Error('no page frame');
  return firstPage;
}

interface Scenario {
  name: string;
  preset: FixturePresetName;
  fastestFirstPageMs: number;
  streamingMs: number;
  jsonMs: number;
}

async function measure(preset: FixturePresetName): Promise<Scenario> {
  const stack = await startStack({
    bundleDir: `.local/bench/bos-streaming`,
    poolSize: 1,
    env: { BOS_FIXTURE_PRESET: preset },
    onFunctionLog: () => undefined,
  });
  try {
    const caller = statelessCaller(stack.url, stack.devTokens?.['dev-user'] ?? '');
    const streaming: number[] = [];
    const json: number[] = [];
    for (let round = 0; round < warmup + rounds; round++) {
      const s = await firstPageMs(caller, round * 2 + 1, true);
      const j = await firstPageMs(caller, round * 2 + 2, false);
      if (round >= warmup) {
        streaming.push(s);
        json.push(j);
      }
    }
    // The fastest configured provider latency before a source's first page (empty sources deliver none).
    const fastest = Math.min(
      ...fixturePreset(preset)
        .filter((o) => o.recordCount > 0)
        .map((o) => o.latencyMs ?? 0),
    );
    return {
      name: preset === 'demo' ? 'demo directory' : 'synthetic (5 × 500 records)',
      preset,
      fastestFirstPageMs: fastest,
      streamingMs: median(streaming),
      jsonMs: median(json),
    };
  } finally {
    await stack.close();
  }
}

const scenarios: Scenario[] = [];
for (const preset of ['demo', 'synthetic'] as const) scenarios.push(await measure(preset));

const rows = scenarios.flatMap((s) => {
  const target = s.fastestFirstPageMs + 25;
  return [
    [
      `${s.name}: fastest source first page`,
      `${s.fastestFirstPageMs.toFixed(0)} ms`,
      'configured provider latency',
    ],
    [
      `${s.name}: first page, streaming`,
      `${s.streamingMs.toFixed(1)} ms`,
      `target ≤ ${target} ms ${s.streamingMs <= target ? 'ok' : 'MISSED'}`,
    ],
    [`${s.name}: first page, plain JSON`, `${s.jsonMs.toFixed(1)} ms`, ''],
    [
      `${s.name}: JSON / streaming`,
      `${(s.jsonMs / s.streamingMs).toFixed(1)}×`,
      `target ≥ 5× ${s.jsonMs / s.streamingMs >= 5 ? 'ok' : 'MISSED'}`,
    ],
  ];
});
const width = Math.max(...rows.map((r) => r[0]?.length ?? 0));
process.stdout.write(
  `bos streaming benchmark through the local stack (medians of ${rounds} rounds, node ${process.version}, load average ${loadavg()[0]?.toFixed(1)})\n`,
);
for (const [name = '', value = '', note = ''] of rows)
  process.stdout.write(`${name.padEnd(width)}  ${value.padStart(10)}  ${note}\n`);
process.stdout.write(
  `${JSON.stringify({
    bench: 'bos-streaming',
    rounds,
    scenarios: scenarios.map((s) => ({
      preset: s.preset,
      fastest_first_page_ms: s.fastestFirstPageMs,
      streaming_first_page_ms: Number(s.streamingMs.toFixed(1)),
      json_first_page_ms: Number(s.jsonMs.toFixed(1)),
      speedup: Number((s.jsonMs / s.streamingMs).toFixed(1)),
      within_target: s.streamingMs <= s.fastestFirstPageMs + 25 && s.jsonMs / s.streamingMs >= 5,
    })),
    load_average: Number(loadavg()[0]?.toFixed(2)),
  })}\n`,
);
