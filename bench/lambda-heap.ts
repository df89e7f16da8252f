/**
 * Runs an in-process benchmark under the heap flags Lambda gives a function (see `local/lambda-heap.ts`): if
 * this process was started without them, the benchmark is started again with them and this process exits with
 * its status. `BENCH_NODE_HEAP=default` keeps Node's own defaults instead, for comparison.
 */
import { spawnSync } from 'node:child_process';

import { DEFAULT_FUNCTION_MEMORY_MB, lambdaHeapFlags } from '../local/lambda-heap.js';

/** The heap flags in force for this run (empty when Node's defaults were asked for). */
export function underLambdaHeap(memorySizeMb = DEFAULT_FUNCTION_MEMORY_MB): string[] {
  if (process.env['BENCH_NODE_HEAP'] === 'default') return [];
  const flags = lambdaHeapFlags(memorySizeMb);
  if (flags.every((flag) => process.execArgv.includes(flag))) return flags;
  const script = process.argv[1];
  if (script === undefined) return [];
  const run = spawnSync(process.execPath, [...flags, ...process.execArgv, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}
