/**
 * Closing a local stack while the function is busy: the invocation in flight ends as the function shutting
 * down (`closed`), not as a runtime crash, so nothing downstream logs a failure of the function's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvocationError } from '../../local/runtime-api/index.js';
import { startStack } from '../../local/stack.js';

const SCENARIOS = fileURLToPath(new URL('../helpers/lambda-handlers/scenarios.ts', import.meta.url));

describe('closing a local stack', { timeout: 60_000 }, () => {
  it('fails an invocation still running with closed, not runtime_exit', async () => {
    const stack = await startStack({
      handlerEntry: SCENARIOS,
      bundleDir: '.local/test-bundles/local-stack-close',
      poolSize: 1,
      onFunctionLog: () => undefined,
    });
    let running: Promise<unknown> = Promise.resolve();
    try {
      running = stack.pool.invoke({
        httpMethod: 'GET',
        path: '/',
        headers: {},
        queryStringParameters: { scenario: 'sleep', ms: '30000' },
      });
      running.catch(() => undefined);
      const until = Date.now() + 10_000;
      while (stack.pool.runningEvents().length === 0 && Date.now() < until) await sleep(20);
      assert.equal(stack.pool.runningEvents().length, 1, 'the invocation is running');
    } finally {
      await stack.close();
    }
    await assert.rejects(running, (error: unknown) => {
      assert.ok(error instanceof InvocationError);
      assert.equal(error.code, 'closed');
      return true;
    });
  });
});
