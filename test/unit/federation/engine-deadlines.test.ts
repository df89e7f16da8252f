/**
 * Deadlines, timeouts, client disconnect and sink backpressure (DESIGN §4 "Deadlines", contract §5).
 * Real timers with short budgets (≤ 300 ms) keep the suite fast; the only timing assertions are the
 * deadline properties this file exists to check, with generous slack.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { runFederation } from '../../../lambda/federation/index.js';
import type { FederationEvent, SourceQuery } from '../../../lambda/federation/index.js';
import { inMs, records, ref, scripted } from './support/scripted-source.js';

const list: SourceQuery = { operation: 'list_people' };
const SLACK_MS = 400; // generous: shared CI machines delay timers; a hung engine would miss by seconds

const terminals = (events: FederationEvent[]) =>
  events
    .filter((e) => e.type !== 'page')
    .map((e) => `${e.source.source_identity} ${e.type === 'error' ? e.code : e.type} ${e.pageIndex}`)
    .sort();

describe('runFederation per-source timeouts', () => {
  it('times out a hanging source, keeping the pages it delivered, while the others complete', async () => {
    const slow = ref('slow');
    const fast = ref('fast');
    const hanging = scripted(slow, [records(slow, 2)], { then: 'hang' });
    const events: FederationEvent[] = [];
    const result = await runFederation({
      sources: [hanging.adapter, scripted(fast, [records(fast, 3)]).adapter],
      query: list,
      deadline: inMs(5000),
      sourceTimeoutMs: 200,
      onEvent: (e) => void events.push(e),
    });
    assert.deepEqual(terminals(events), ['fast complete 1', 'slow source_timeout 1']);
    assert.equal(result.records.length, 5, 'records delivered before the timeout are kept');
    assert.equal(hanging.log.aborted, true);
    assert.equal(hanging.log.returned, true);
    assert.deepEqual(result.metadata.source_errors, [{ source: slow, error: { code: 'source_timeout' } }]);
  });

  it("lets an adapter's own timeoutMs override the operation's sourceTimeoutMs", async () => {
    const a = ref('a');
    const hanging = scripted(a, [], { then: 'hang', timeoutMs: 100 });
    const started = Date.now();
    await runFederation({
      sources: [hanging.adapter],
      query: list,
      deadline: inMs(5000),
      sourceTimeoutMs: 4000,
    });
    assert.ok(Date.now() - started < 100 + SLACK_MS * 2, `ended after ${Date.now() - started} ms`);
    assert.equal(hanging.log.aborted, true);
  });

  it('resolves by the deadline even when an adapter ignores its abort signal', async () => {
    const a = ref('deaf');
    const deaf = scripted(a, [records(a, 1)], { then: 'hang', ignoreAbort: true });
    const deadline = inMs(200);
    const events: FederationEvent[] = [];
    const result = await runFederation({
      sources: [deaf.adapter],
      query: list,
      deadline,
      onEvent: (e) => void events.push(e),
    });
    assert.ok(Date.now() <= deadline + SLACK_MS, `resolved ${Date.now() - deadline} ms after the deadline`);
    assert.deepEqual(terminals(events), ['deaf source_timeout 1']);
    assert.equal(result.records.length, 1);
    assert.equal(deaf.log.aborted, true, 'its signal still fired');
  });
});

describe('runFederation operation budget', () => {
  it('ends running and not-yet-started sources with source_timeout when the budget runs out', async () => {
    const [a, b, c] = [ref('a'), ref('b'), ref('c')];
    const first = scripted(a, [records(a, 1)], { then: 'hang' });
    const second = scripted(b, [records(b, 1)]);
    const third = scripted(c, [records(c, 1)]);
    const events: FederationEvent[] = [];
    const result = await runFederation({
      sources: [first.adapter, second.adapter, third.adapter],
      query: list,
      deadline: inMs(200),
      maxConcurrentSources: 1,
      onEvent: (e) => void events.push(e),
    });
    assert.deepEqual(terminals(events), ['a source_timeout 1', 'b source_timeout 0', 'c source_timeout 0']);
    assert.equal(
      second.log.started + third.log.started,
      0,
      'queued sources are never read after the deadline',
    );
    assert.equal(result.metadata.completeness, 'partial');
    assert.equal(result.records.length, 1);
  });

  it('starts nothing when the budget is already spent', async () => {
    const a = ref('a');
    const source = scripted(a, [records(a, 1)]);
    const events: FederationEvent[] = [];
    const result = await runFederation({
      sources: [source.adapter],
      query: list,
      deadline: Date.now() - 1,
      onEvent: (e) => void events.push(e),
    });
    assert.equal(source.log.started, 0);
    assert.deepEqual(terminals(events), ['a source_timeout 0']);
    assert.equal(result.metadata.completeness, 'partial');
  });
});

describe('runFederation client disconnect', () => {
  it('aborts every in-flight read at once, pulls no further page and rejects with operation_aborted', async () => {
    const sources = ['a', 'b', 'c'].map((id) =>
      scripted(ref(id), [records(ref(id), 1), records(ref(id), 1, 'n')], { delayMs: 60 }),
    );
    const disconnect = new AbortController();
    const events: FederationEvent[] = [];
    const run = runFederation({
      sources: sources.map((s) => s.adapter),
      query: list,
      deadline: inMs(5000),
      signal: disconnect.signal,
      onEvent: (e) => void events.push(e),
    });
    await new Promise((resolve) => setTimeout(resolve, 90)); // after the first pages, during the second pulls
    const abortedAt = Date.now();
    disconnect.abort();
    await assert.rejects(run, { name: 'FederationError', code: 'operation_aborted' });
    const eventsAtAbort = events.length;
    for (const { log } of sources) {
      assert.equal(log.aborted, true);
      assert.ok((log.abortedAt ?? Infinity) - abortedAt < 20, 'every read sees the abort promptly');
      assert.equal(log.returned, true, 'return() is called on the provider iterator');
    }
    const pullsAtAbort = sources.map((s) => s.log.pulls);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.deepEqual(
      sources.map((s) => s.log.pulls),
      pullsAtAbort,
      'no provider page is requested after the abort',
    );
    assert.equal(events.length, eventsAtAbort, 'no event follows the abort');
    assert.ok(
      events.every((e) => e.type === 'page'),
      'no terminals are invented for a disconnected client',
    );
  });

  it('reads nothing when the signal is already aborted', async () => {
    const a = ref('a');
    const source = scripted(a, [records(a, 1)]);
    await assert.rejects(
      runFederation({
        sources: [source.adapter],
        query: list,
        deadline: inMs(1000),
        signal: AbortSignal.abort(),
      }),
      { code: 'operation_aborted' },
    );
    assert.equal(source.log.started, 0);
  });
});

describe('runFederation sink backpressure', () => {
  it('pulls no further provider page until the sink has taken the previous one', async () => {
    const a = ref('a');
    const source = scripted(a, [records(a, 1, 'x'), records(a, 1, 'y'), records(a, 1, 'z')]);
    const pullsWhenPageArrived: number[] = [];
    await runFederation({
      sources: [source.adapter],
      query: list,
      deadline: inMs(2000),
      onEvent: async (e) => {
        if (e.type !== 'page') return;
        pullsWhenPageArrived.push(source.log.pulls);
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(
          source.log.pulls,
          pullsWhenPageArrived.at(-1),
          'nothing was pulled while the sink was busy',
        );
      },
    });
    assert.deepEqual(pullsWhenPageArrived, [1, 2, 3]);
  });

  it('still resolves by the deadline when the sink never settles', async () => {
    const a = ref('a');
    const deadline = inMs(200);
    const result = await runFederation({
      sources: [scripted(a, [records(a, 1), records(a, 1, 'n')]).adapter],
      query: list,
      deadline,
      onEvent: () => new Promise(() => undefined),
    });
    assert.ok(Date.now() <= deadline + SLACK_MS, `resolved ${Date.now() - deadline} ms after the deadline`);
    assert.deepEqual(result.metadata.source_errors, [{ source: a, error: { code: 'source_timeout' } }]);
    assert.equal(result.records.length, 1, 'the page the sink accepted is kept');
  });

  it('fails the run with sink_failed and aborts the reads when the sink throws', async () => {
    const a = ref('a');
    const source = scripted(a, [records(a, 1), records(a, 1, 'n')], { delayMs: 10 });
    await assert.rejects(
      runFederation({
        sources: [source.adapter],
        query: list,
        deadline: inMs(2000),
        onEvent: () => {
          throw new Error('stream closed');
        },
      }),
      { name: 'FederationError', code: 'sink_failed' },
    );
    assert.equal(source.log.aborted, true);
  });
});
