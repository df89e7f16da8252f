/**
 * The local function scales like Lambda: each concurrent request gets its own execution environment — a warm
 * one when one is idle, else a new one cold-started for it — up to the function's concurrency. A request
 * beyond it is throttled at once with API Gateway's answer for a throttled function (500), not queued.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type LocalStack, startStack } from '../../local/stack.js';
import { SCENARIO_HANDLER, capture } from '../helpers/lambda-handlers/http-capture.js';
import { linesAt, messagesAt, withLogLines } from '../helpers/log-lines.js';

describe(
  'a local function with two warm environments and a concurrency of four',
  { timeout: 120_000 },
  () => {
    let stack: LocalStack;

    before(async () => {
      stack = await startStack({
        handlerEntry: SCENARIO_HANDLER,
        bundleDir: '.local/test-bundles/local-stack-concurrency',
        poolSize: 2,
        concurrency: 4,
        timeoutSeconds: 30,
        // Completion notices are invocations too (they count against the concurrency, as on AWS); here they
        // would take environments between the test's own requests and blur what it counts.
        completionInvocations: false,
        onFunctionLog: () => undefined,
      });
    });
    after(async () => {
      await stack?.close();
    });

    it('runs four concurrent requests concurrently, cold-starting an environment for each beyond the warm ones', async () => {
      const spawnsBefore = stack.pool.spawnCount;
      const startedAt = performance.now();

      const responses = await Promise.all(
        Array.from({ length: 4 }, () => capture(`${stack.url}?scenario=sleep&ms=1000`)),
      );

      const elapsed = performance.now() - startedAt;
      for (const response of responses) assert.equal(response.status, 200);
      assert.equal(stack.pool.environmentCount, 4);
      assert.equal(
        stack.pool.spawnCount,
        spawnsBefore + 2,
        'two cold starts, one per request beyond the warm two',
      );
      assert.ok(elapsed < 4000, `four concurrent invocations took ${elapsed} ms, as if serialised`);
    });

    it('throttles a fifth concurrent request with API Gateway’s 500 while the other four run', async () => {
      // Every environment polls again after the last test (a runtime that answered is busy until it does).
      await until(() => stack.pool.idleCount === 4);
      const running = Array.from({ length: 4 }, () => capture(`${stack.url}?scenario=sleep&ms=3000`));
      // Let the four reach their environments first (they sleep long enough for the fifth to find them busy).
      await until(() => stack.pool.inFlight === 4);

      const { result: throttled, lines } = await withLogLines(() =>
        capture(`${stack.url}?scenario=sleep&ms=10`),
      );
      assert.ok(messagesAt(lines, 'WARN').includes('function throttled: concurrency limit reached'));
      const others = await Promise.all(running);

      assert.equal(throttled.status, 500);
      assert.equal(throttled.headers['x-amzn-errortype'], 'InternalServerErrorException');
      assert.equal(throttled.body, '{"message":"Internal server error"}');
      assert.ok(
        throttled.endedAt < Math.min(...others.map((response) => response.endedAt)),
        'answered without waiting',
      );
      for (const response of others) assert.equal(response.status, 200);
    });
  },
);

describe('a local function whose runtimes may initialise one at a time', { timeout: 120_000 }, () => {
  let stack: LocalStack;

  before(async () => {
    stack = await startStack({
      handlerEntry: SCENARIO_HANDLER,
      bundleDir: '.local/test-bundles/local-stack-concurrency',
      poolSize: 1,
      concurrency: 3,
      maxParallelInits: 1,
      timeoutSeconds: 30,
      onFunctionLog: () => undefined,
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('answers a burst beyond the warm environment while never initialising two runtimes at once', async () => {
    // Prepare: sample how many runtimes initialise while the burst is served.
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, stack.pool.initializingCount)), 2);
    // Act
    const { result: responses, lines } = await withLogLines(async () => {
      const answers = await Promise.all(
        Array.from({ length: 3 }, () => capture(`${stack.url}?scenario=sleep&ms=1500`)),
      );
      await until(() => stack.pool.idleCount === stack.pool.environmentCount);
      return answers;
    });
    clearInterval(sampler);
    // Assess
    // The completion invocation of an early answer may find all three environments busy: it is throttled,
    // as on AWS, where it counts against the same concurrency. Nothing else may be logged as a failure.
    for (const warning of linesAt(lines, 'WARN')) assert.match(String(warning['error']), /Rate Exceeded/);
    for (const response of responses) assert.equal(response.status, 200);
    assert.equal(stack.pool.environmentCount, 3);
    assert.equal(stack.pool.spawnCount, 3, 'each environment created for the burst was cold-started');
    assert.equal(most, 1);
  });
});

/** Polls `probe` every 10 ms until it holds (the suite's timeout bounds the wait). */
async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((resolve) => setTimeout(resolve, 10));
}
