/**
 * The function timeout under the local stack: the runtime client sees Lambda's real time budget, and a
 * runtime that runs past it is killed and replaced, with API Gateway's failure for the client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type LocalStack, startStack } from '../../local/stack.js';
import { SCENARIO_HANDLER, capture } from '../helpers/lambda-handlers/http-capture.js';
import { logged, messagesAt, withLogLines } from '../helpers/log-lines.js';

describe('a local function with a 3 s timeout', { timeout: 120_000 }, () => {
  let stack: LocalStack;
  const scenario = (name: string, query = ''): string => `${stack.url}?scenario=${name}${query}`;

  before(async () => {
    stack = await startStack({
      handlerEntry: SCENARIO_HANDLER,
      bundleDir: '.local/test-bundles/local-stack-timeout',
      poolSize: 1,
      timeoutSeconds: 3,
      onFunctionLog: () => undefined,
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('sees about 3000 ms remaining when it starts', async () => {
    const response = await capture(scenario('inspect'));

    const { remainingMs } = JSON.parse(response.body) as { remainingMs: number };
    assert.ok(remainingMs <= 3000 && remainingMs > 2500, `remaining time was ${remainingMs} ms`);
  });

  it('is killed past its timeout before the prelude, the client gets 502, and the next invocation succeeds', async () => {
    const spawnsBefore = stack.pool.spawnCount;
    const killsBefore = stack.pool.timeoutKills;

    const { result: timedOut, lines } = await withLogLines(() => capture(scenario('sleep', '&ms=10000')));
    const next = await capture(scenario('inspect'));
    assert.ok(messagesAt(lines, 'WARN').includes('function failed before the prelude'));

    assert.equal(timedOut.status, 502);
    assert.deepEqual(JSON.parse(timedOut.body), { message: 'Internal server error' });
    // The killed environment is replaced; the next invocation may also get an environment of its own if it
    // arrives before the kill is observed (as on Lambda, where a timed-out environment is never reused).
    assert.equal(stack.pool.timeoutKills, killsBefore + 1, 'the runtime was killed at its deadline');
    assert.ok(stack.pool.spawnCount > spawnsBefore, 'a fresh runtime replaced the killed one');
    assert.equal(next.status, 200);
    assert.ok((JSON.parse(next.body) as { remainingMs: number }).remainingMs > 2500);
  });

  it('is killed past its timeout after the prelude, the client sees a truncated stream, and the next invocation succeeds', async () => {
    const { result: timedOut } = await withLogLines(async (lines) => {
      const answer = await capture(scenario('stream-then-hang'));
      assert.ok(await logged(lines, 'stream aborted'), 'the front logs the cut stream');
      return answer;
    });
    const next = await capture(scenario('accepted'));

    assert.equal(timedOut.status, 200);
    assert.equal(timedOut.body, 'started\n');
    assert.equal(timedOut.aborted, true);
    assert.equal(next.status, 202);
  });
});

describe('the REST front limits of a streamed response', { timeout: 120_000 }, () => {
  let stack: LocalStack;
  const scenario = (name: string, query = ''): string => `${stack.url}?scenario=${name}${query}`;

  before(async () => {
    stack = await startStack({
      handlerEntry: SCENARIO_HANDLER,
      bundleDir: '.local/test-bundles/local-stack-front-limits',
      // Two environments: a cut stream's function keeps running for a while (as on Lambda).
      poolSize: 2,
      timeoutSeconds: 20,
      idleTimeoutMs: 600,
      maxDurationMs: 2000,
      onFunctionLog: () => undefined,
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('cuts the connection when no byte arrives within the idle timeout', async () => {
    const { result: response } = await withLogLines(async (lines) => {
      const answer = await capture(scenario('events', '&count=2&gap=1500'));
      assert.ok(await logged(lines, 'stream aborted'), 'the front logs the cut stream');
      return answer;
    });

    assert.equal(response.status, 200);
    assert.equal(response.body, 'data: event 1\n\n');
    assert.equal(response.aborted, true);
  });

  it('cuts the connection at the total duration limit even while bytes keep flowing', async () => {
    const { result: response } = await withLogLines(async (lines) => {
      const answer = await capture(scenario('events', '&count=20&gap=250'));
      assert.ok(await logged(lines, 'stream aborted'), 'the front logs the cut stream');
      return answer;
    });

    assert.equal(response.status, 200);
    assert.equal(response.aborted, true);
    assert.ok(response.body.startsWith('data: event 1\n\n'));
    assert.doesNotMatch(response.body, /event 20/);
  });

  it('answers 504 when the prelude does not arrive within the idle timeout', async () => {
    const response = await capture(scenario('sleep', '&ms=1500'));

    assert.equal(response.status, 504);
    assert.deepEqual(JSON.parse(response.body), { message: 'Endpoint request timed out' });
  });
});
