/**
 * The local function runs as a pool of execution environments, so concurrent requests run concurrently, as
 * they would on Lambda (one environment per in-flight invocation).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type LocalStack, startStack } from '../../local/stack.js';
import { SCENARIO_HANDLER, capture } from '../helpers/lambda-handlers/http-capture.js';

describe('a local function with four execution environments', { timeout: 120_000 }, () => {
  let stack: LocalStack;

  before(async () => {
    stack = await startStack({
      handlerEntry: SCENARIO_HANDLER,
      bundleDir: '.local/test-bundles/local-stack-concurrency',
      poolSize: 4,
      timeoutSeconds: 30,
      onFunctionLog: () => undefined,
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('finishes four 1 s invocations sent together in about one duration, not four', async () => {
    const startedAt = performance.now();

    const responses = await Promise.all(
      Array.from({ length: 4 }, () => capture(`${stack.url}?scenario=sleep&ms=1000`)),
    );

    const elapsed = performance.now() - startedAt;
    for (const response of responses) assert.equal(response.status, 200);
    assert.ok(elapsed >= 1000, `took ${elapsed} ms`);
    assert.ok(elapsed < 2000, `four concurrent invocations took ${elapsed} ms, as if serialised`);
  });

  it('queues a fifth concurrent invocation until an environment is free', async () => {
    const startedAt = performance.now();

    const responses = await Promise.all(
      Array.from({ length: 5 }, () => capture(`${stack.url}?scenario=sleep&ms=600`)),
    );

    const last = Math.max(...responses.map((response) => response.endedAt)) - startedAt;
    for (const response of responses) assert.equal(response.status, 200);
    assert.ok(last >= 1200, `the fifth finished after ${last} ms, so it did not wait for a free runtime`);
  });
});
