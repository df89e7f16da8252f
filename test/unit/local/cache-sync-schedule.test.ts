/**
 * The local source cache schedule: a `bos.cache.sync` event through the local Invoke API before the stack says
 * ready, then again after each interval, never two at once, and nothing after it is stopped.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCacheSyncSchedule } from '../../../local/cache-sync-schedule.js';
import { startInvokeApi } from '../../../local/runtime-api/index.js';
import type { InvocationResponse } from '../../../local/runtime-api/index.js';
import { linesAt, withLogLines } from '../../helpers/log-lines.js';

const FUNCTION_NAME = 'bos-mcp-platform';

/** A streamed answer with the HTTP status the platform's entry gives a sync event. */
function answer(statusCode: number): InvocationResponse {
  const prelude = JSON.stringify({ statusCode, headers: {} });
  return {
    requestId: 'req',
    mode: 'streaming',
    contentType: 'application/vnd.awslambda.http-integration-response',
    body: Readable.from([Buffer.from(`${prelude}\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000`)]),
  };
}

/** The Invoke API in front of a function that records its events and takes `runMs` per event. */
async function recordingFunction(options: { runMs: number; statusCode?: number }) {
  const events: unknown[] = [];
  let running = 0;
  let overlapped = false;
  const api = await startInvokeApi({
    functionName: FUNCTION_NAME,
    invoke: async (event) => {
      events.push(event);
      running += 1;
      if (running > 1) overlapped = true;
      await sleep(options.runMs);
      running -= 1;
      return answer(options.statusCode ?? 204);
    },
  });
  return { api, events, overlapped: () => overlapped };
}

describe('the local source cache schedule', () => {
  it('syncs once before it resolves, then again after each interval, one run at a time', async () => {
    const fn = await recordingFunction({ runMs: 20 });
    try {
      const schedule = await startCacheSyncSchedule({
        invokeUrl: fn.api.url,
        functionName: FUNCTION_NAME,
        intervalMs: 40,
      });
      assert.deepEqual(fn.events, [{ kind: 'bos.cache.sync' }]);
      await sleep(200);
      await schedule.stop();
      const sent = fn.events.length;
      assert.ok(sent >= 2, `${sent} sync events in 200 ms`);
      assert.ok(sent <= 6, `${sent} sync events: runs must not overlap or skip the interval`);
      assert.equal(fn.overlapped(), false);
      await sleep(100);
      assert.equal(fn.events.length, sent, 'no event after stop');
    } finally {
      await fn.api.close();
    }
  });

  it('logs a failed run as a warning and keeps the schedule going', async () => {
    const fn = await recordingFunction({ runMs: 1, statusCode: 400 });
    try {
      const { lines } = await withLogLines(async () => {
        const schedule = await startCacheSyncSchedule({
          invokeUrl: fn.api.url,
          functionName: FUNCTION_NAME,
          intervalMs: 20,
        });
        await sleep(100);
        await schedule.stop();
      });
      const warnings = linesAt(lines, 'WARN');
      assert.ok(warnings.length >= 2, 'each failed run is logged');
      for (const warning of warnings) {
        assert.equal(warning['message'], 'source cache sync failed');
        assert.match(String(warning['error']), /answered 400/);
      }
      assert.ok(fn.events.length >= 2);
    } finally {
      await fn.api.close();
    }
  });
});
