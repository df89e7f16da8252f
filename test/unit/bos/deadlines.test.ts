import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../../lambda/bos/index.js';
import type { SourceAdapter } from '../../../lambda/federation/index.js';
import { createHarness, fastDemoSources } from './platform-harness.js';
import { messagesOf, operationResultOf, pairKey, parseSse } from './sse-frames.js';
import { checkStream } from './stream-invariants.js';

/** Wraps an adapter so the test can see the signal each read received (the real adapter still runs). */
function observed(adapter: SourceAdapter, signals: Map<string, AbortSignal>): SourceAdapter {
  return {
    source: adapter.source,
    ...(adapter.timeoutMs !== undefined && { timeoutMs: adapter.timeoutMs }),
    read(query, options) {
      signals.set(adapter.source.source_identity, options.signal);
      return adapter.read(query, options);
    },
  };
}

describe(
  'operation budget (DESIGN §4, contract §5 "Operation deadlines remain in force")',
  { timeout: 60_000 },
  () => {
    it('ends an unfinished source at invocation deadline minus the reserve, keeping its delivered page', async () => {
      // acme-legacy's own timeout is far away, so only the invocation deadline can end it. The margins (3 s for
      // the sources before the cut, 3 s for the final frame after it) are not what is tested: they are wide so
      // a loaded machine still delivers legacy's first page before the cut and the final frame before the end.
      const harness = await createHarness({
        sources: fastDemoSources({ 'acme-legacy': { timeoutMs: 600_000 } }),
        deadlineReserveMs: 3000,
      });
      const session = await harness.session(harness.auth.tokens['dev-user']);
      const deadline = Date.now() + 6000;
      const response = await session.call('list_people', {}, { optIn: {}, invocation: { deadline } });
      const messages = messagesOf(parseSse(await response.text()));
      const finishedAt = Date.now();
      const context = (messages[0]?.params?.context ?? {}) as { context_handle?: string };
      assert.equal(context.context_handle, DEMO_PEOPLE_CONTEXT_HANDLE);
      const { terminals, pages, final } = checkStream(messages, 'call-1', context);
      assert.deepEqual(terminals.get('legacy/acme-legacy')?.error, { code: 'source_timeout' });
      assert.ok((pages.get('legacy/acme-legacy')?.length ?? 0) >= 1);
      const kept = operationResultOf(final).records.filter((r) =>
        r.sources.some((s) => pairKey(s) === 'legacy/acme-legacy'),
      );
      assert.ok(kept.length > 0, 'the delivered legacy page is in the final result');
      // Not a latency assertion: the final frame must exist before the invocation deadline at all.
      assert.ok(finishedAt < deadline, 'the final frame is written before the invocation deadline');
      assert.ok(
        finishedAt >= deadline - 3000,
        'the hanging source was not cut before deadline minus the reserve',
      );
      await harness.platform.server.settled();
    });
  },
);

describe('disconnect (contract §5 "Disconnect cancels outstanding work")', { timeout: 60_000 }, () => {
  it('aborts every in-flight source read when the invocation signal fires mid-stream', async () => {
    const signals = new Map<string, AbortSignal>();
    const slow = fastDemoSources({
      'acme-legacy': { timeoutMs: 600_000 },
      'acme-crm': { latencyMs: 600_000 },
    });
    const sources = new Map([...slow].map(([id, adapter]) => [id, observed(adapter, signals)]));
    const harness = await createHarness({ sources });
    const session = await harness.session(harness.auth.tokens['dev-user']);
    const disconnect = new AbortController();
    const response = await session.call(
      'list_people',
      {},
      { optIn: {}, invocation: { signal: disconnect.signal } },
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('"status":"page"')) {
      const { value, done } = await reader.read();
      assert.equal(done, false, 'a page arrives before the stream ends');
      seen += decoder.decode(value, { stream: true });
    }
    // Every source must be reading when the client goes away (they start together, but not in one tick).
    while (signals.size < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    disconnect.abort();
    await reader.cancel();
    await harness.platform.server.settled();
    // acme-crm waits on a provider page and acme-legacy hangs: both are in flight at the disconnect.
    assert.equal(signals.get('acme-crm')?.aborted, true);
    assert.equal(signals.get('acme-legacy')?.aborted, true);
  });
});
