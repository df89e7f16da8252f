import assert from 'node:assert/strict';
import { test } from 'node:test';

import { lambdaHeapFlags } from '../../../local/lambda-heap.js';

test('a 1,024 MB function gets a 51 MB semi-space and 922 MB of old space, as Lambda sets them', () => {
  assert.deepEqual(lambdaHeapFlags(1024), ['--max-semi-space-size=51', '--max-old-space-size=922']);
});

test('the flags use integer megabytes for sizes that do not divide evenly', () => {
  assert.deepEqual(lambdaHeapFlags(128), ['--max-semi-space-size=6', '--max-old-space-size=116']);
  assert.deepEqual(lambdaHeapFlags(1769), ['--max-semi-space-size=88', '--max-old-space-size=1593']);
});
