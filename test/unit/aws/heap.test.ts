/**
 * `BOS_HEAP_GROWING_PERCENT` reaches V8 (lambda/aws/heap.ts). The flag's effect is a figure of
 * `npm run bench:federation` (full collections per invocation), never a timed test; here a child process
 * shows that V8 takes the flag at run time, through the collections it reports with `--trace-gc`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { applyHeapGrowing, DEFAULT_HEAP_GROWING_PERCENT } from '../../../lambda/aws/index.js';

/**
 * Full collections of a child that keeps ~40 MB alive and allocates ~600 MB of short-lived objects
 * meanwhile, after `applyHeapGrowing(percent)`.
 */
function fullCollections(percent: number): number {
  const script = `
    import { applyHeapGrowing } from './lambda/aws/heap.ts';
    applyHeapGrowing(${percent});
    const kept = [];
    for (let i = 0; i < 400_000; i++) kept.push({ i, text: 'k' + i });
    let sink = 0;
    for (let round = 0; round < 30; round++) {
      const batch = [];
      for (let i = 0; i < 200_000; i++) batch.push({ i, text: 'b' + i });
      kept.push(batch.slice(0, 2_000));
      sink += batch.length;
    }
    console.log(sink);`;
  const run = spawnSync(
    process.execPath,
    ['--trace-gc', '--max-old-space-size=922', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', cwd: new URL('../../..', import.meta.url).pathname },
  );
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n').filter((line) => line.includes('Mark-Compact')).length;
}

describe('heap growing percent', () => {
  it('sets --heap-growing-percent for a positive percent and leaves V8 alone for 0', () => {
    assert.equal(DEFAULT_HEAP_GROWING_PERCENT, 200);
    assert.equal(applyHeapGrowing(0), undefined);
    assert.equal(applyHeapGrowing(-1), undefined);
    assert.equal(applyHeapGrowing(1.5), undefined);
    assert.equal(applyHeapGrowing(200), '--heap-growing-percent=200');
  });

  it('is taken by V8 after start: a process collects its old generation less often', () => {
    const own = fullCollections(0);
    const grown = fullCollections(400);
    assert.ok(grown < own, `full collections: ${grown} with 400 %, ${own} with V8's own factor`);
  });
});
