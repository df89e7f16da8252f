/**
 * `npm run bench:federation`: realistic federated reads through the deployed handler path, in this process
 * (DESIGN §8: a table and one JSON line; never a timed test).
 * (a) the demo directory's `search_people {"query":"a"}` as `npm start` serves it (`demo-tenant.ts`);
 * (b) a large tenant, 8 sources × 2,500 people in provider pages of 200, `list_people` (`large-tenant.ts`);
 * (c) makespan of 32 sources × 200 ms with at most 8 in flight (`makespan.ts`).
 * For (a) and (b) each figure is the median of `BENCH_CALLS` (default 7) warm calls after `BENCH_WARMUP`
 * (default 2) unmeasured ones, plus the irreducible-work ratio (`irreducible.ts`). Cold start is measured by
 * `npm run bench:lambda`. The function's log lines go to stderr here, so stdout holds only the report.
 */
import { loadavg } from 'node:os';
import { demoProviderResponses, irreducibleCpu, median } from './irreducible.js';
import { installLambdaGlobal, invoke, streamedExecuteEvent } from './lambda-host.js';
import type { CallFigures, StreamingHandler } from './lambda-host.js';
import { LARGE_CONTEXT_HANDLE, renderProviderResponses, startLargeTenant } from './large-tenant.js';
import { measureMakespan } from './makespan.js';
import { reportLine, reportTable } from './report.js';
import type { Scenario } from './report.js';

const calls = Math.max(1, Number(process.env['BENCH_CALLS'] ?? 7) || 7);
const warmup = Math.max(0, Number(process.env['BENCH_WARMUP'] ?? 2) || 0);

// The report owns stdout; the function logs one JSON line per call there, as it does in Lambda.
const report = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);

/** Warm-up calls, measured calls, then one call that captures the events for the floor. */
async function scenario(
  name: string,
  handler: StreamingHandler,
  event: Parameters<typeof invoke>[1],
  providerResponses: readonly string[],
): Promise<Scenario> {
  for (let i = 0; i < warmup; i++) await invoke(handler, event);
  const runs: CallFigures[] = [];
  for (let i = 0; i < calls; i++) runs.push(await invoke(handler, event));
  const captured = await invoke(handler, event, { capture: true });
  const finalData = captured.events.final[0] ?? '';
  if (!finalData.includes('"result_count":')) throw new Error(`${name}: the final frame is not a result`);
  const of = (pick: (run: CallFigures) => number) => median(runs.map(pick));
  return {
    name,
    calls: runs.length,
    providerResponses: providerResponses.length,
    providerBytes: providerResponses.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
    resultCount: Number(/"result_count":(\d+)/.exec(finalData)?.[1] ?? NaN),
    cpuMs: of((r) => r.cpuMs),
    cpuMsRange: [Math.min(...runs.map((r) => r.cpuMs)), Math.max(...runs.map((r) => r.cpuMs))],
    wallMs: of((r) => r.wallMs),
    firstPageMs: of((r) => r.firstPageMs),
    peakRssMb: of((r) => r.peakRssMb),
    pageEvents: of((r) => r.pageEvents),
    pageBytes: of((r) => r.pageBytes),
    finalBytes: of((r) => r.finalBytes),
    floor: irreducibleCpu(providerResponses, captured.events),
  };
}

installLambdaGlobal();
const loadAtStart = loadavg()[0] ?? NaN;
const makespan = await measureMakespan();

// (a) The demo handler module composes itself when loaded, so it is loaded only now, after the global.
const { startDemoTenant, DEMO_CALL } = await import('./demo-tenant.js');
const demo = await startDemoTenant();
const a = await scenario(
  '(a) demo search_people',
  demo.handler,
  streamedExecuteEvent(demo.token, DEMO_CALL.contextHandle, DEMO_CALL.operation, DEMO_CALL.arguments),
  demoProviderResponses({ operation: 'search_people', query: DEMO_CALL.arguments.query }),
);
await demo.close();

// (b) The providers' responses are rendered before any call: producing them is the providers' work.
const responses = renderProviderResponses();
const large = await startLargeTenant(responses);
const b = await scenario(
  '(b) large tenant list_people',
  large.handler,
  streamedExecuteEvent(large.token, LARGE_CONTEXT_HANDLE, 'list_people', {}),
  responses.flat(),
);
await large.close();

const loads = [loadAtStart, loadavg()[0] ?? NaN];
report(reportTable([a, b], makespan, { calls, warmup, loads }));
report(reportLine([a, b], makespan, { calls, warmup, loads }));
