/**
 * The engine's paging, validation, terminals, error codes and final result (DESIGN §4, contract §3–§5).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { runFederation, SourceError, singleKeyRecordRef } from '../../../lambda/federation/index.js';
import type {
  FederationEvent,
  FederationLogEntry,
  RawRecord,
  SourceQuery,
} from '../../../lambda/federation/index.js';
import { fixedClock, inMs, rawRecord, records, ref, scripted } from './support/scripted-source.js';

const list: SourceQuery = { operation: 'list_people' };

async function collect(options: Omit<Parameters<typeof runFederation>[0], 'onEvent'>) {
  const events: FederationEvent[] = [];
  const result = await runFederation({ ...options, onEvent: (e) => void events.push(e) });
  return { events, result };
}

const summary = (events: FederationEvent[]) =>
  events.map((e) =>
    e.type === 'page'
      ? `${e.source.source_identity} page ${e.pageIndex} (${e.records.length})`
      : e.type === 'complete'
        ? `${e.source.source_identity} complete ${e.pageIndex}`
        : `${e.source.source_identity} error ${e.code} ${e.pageIndex}`,
  );

describe('runFederation paging', () => {
  it('splits a big provider page into delivery pages of at most pageSize, then completes with the last index', async () => {
    const a = ref('a');
    const { adapter } = scripted(a, [records(a, 250)]);
    const { events } = await collect({
      sources: [adapter],
      query: list,
      deadline: inMs(2000),
      pageSize: 100,
    });
    assert.deepEqual(summary(events), ['a page 1 (100)', 'a page 2 (100)', 'a page 3 (50)', 'a complete 3']);
  });

  it('emits a short provider page at once instead of waiting to fill a delivery page', async () => {
    const a = ref('a');
    const seen: string[] = [];
    const { adapter } = scripted(a, [records(a, 30, 'x'), records(a, 30, 'y')], { delayMs: 40 });
    const { events } = await collect({
      sources: [adapter],
      query: list,
      deadline: inMs(2000),
      pageSize: 100,
    });
    for (const e of events)
      seen.push(e.type === 'page' ? `page ${e.pageIndex} (${e.records.length})` : e.type);
    assert.deepEqual(seen, ['page 1 (30)', 'page 2 (30)', 'complete']);
  });

  it('completes an empty successful source with pageIndex 0', async () => {
    const { adapter } = scripted(ref('empty'), []);
    const { events, result } = await collect({ sources: [adapter], query: list, deadline: inMs(1000) });
    assert.deepEqual(summary(events), ['empty complete 0']);
    assert.equal(result.metadata.completeness, 'complete');
    assert.equal(result.metadata.result_count, 0);
    assert.deepEqual(result.metadata.source_errors, []);
  });

  it('federates the records of one delivery page with each other (source-local federation)', async () => {
    const a = ref('a');
    const page = [
      rawRecord(a, '1', { email: 'Sam@Example.com' }),
      rawRecord(a, '2', { email: ' sam@example.com ' }),
      rawRecord(a, '3'),
    ];
    const { events } = await collect({ sources: [adapter(a, [page])], query: list, deadline: inMs(1000) });
    const first = events[0];
    assert.equal(first?.type, 'page');
    assert.equal(first.type === 'page' ? first.records.length : -1, 2);
  });
});

function adapter(source: ReturnType<typeof ref>, pages: RawRecord[][]) {
  return scripted(source, pages).adapter;
}

describe('runFederation provenance validation', () => {
  it('ends a source claiming another source with source_identity_mismatch, keeping its earlier pages only', async () => {
    const a = ref('a');
    const bad = [rawRecord(a, 'ok-2'), rawRecord(ref('someone-else'), 'stolen')];
    const { adapter: source, log } = scripted(a, [[rawRecord(a, 'ok-1')], bad, [rawRecord(a, 'never')]]);
    const { events, result } = await collect({ sources: [source], query: list, deadline: inMs(1000) });
    assert.deepEqual(summary(events), ['a page 1 (1)', 'a error source_identity_mismatch 1']);
    assert.deepEqual(
      result.records.map((r) => r.sources[0]?.external_id),
      ['ok-1'],
    );
    assert.equal(log.returned, true, 'the provider iterator is closed');
    assert.equal(log.pulls, 2, 'no page is pulled after the mismatch');
  });

  it('treats a malformed record as source_unavailable and publishes none of its page', async () => {
    const a = ref('a');
    const malformed = { ...rawRecord(a, 'x'), observed_at: 'not a date' };
    const { events } = await collect({
      sources: [adapter(a, [[rawRecord(a, 'fine'), malformed]])],
      query: list,
      deadline: inMs(1000),
    });
    assert.deepEqual(summary(events), ['a error source_unavailable 0']);
  });
});

describe('runFederation source errors', () => {
  for (const code of ['rate_limited', 'provider_authorization_required', 'source_unavailable'] as const) {
    it(`ends a source that throws SourceError(${code}) with ${code} after its delivered pages`, async () => {
      const a = ref('a');
      const { adapter: source } = scripted(a, [records(a, 3)], { then: { throw: new SourceError(code) } });
      const { events, result } = await collect({ sources: [source], query: list, deadline: inMs(1000) });
      assert.deepEqual(summary(events), ['a page 1 (3)', `a error ${code} 1`]);
      assert.equal(result.metadata.completeness, 'partial');
      assert.equal(result.records.length, 3, 'delivered records stay in the final result');
    });
  }

  it('turns any other throw into source_unavailable without letting its text out', async () => {
    const secret = 'password=hunter2 Bearer SECRET-TOKEN-123';
    const a = ref('a');
    const { adapter: source } = scripted(a, [], { then: { throw: new TypeError(secret) } });
    const logs: FederationLogEntry[] = [];
    const { events, result } = await collect({
      sources: [source],
      query: list,
      deadline: inMs(1000),
      onLog: (entry) => logs.push(entry),
    });
    assert.deepEqual(summary(events), ['a error source_unavailable 0']);
    const everything = JSON.stringify({ events, result, logs });
    assert.ok(!everything.includes('hunter2') && !everything.includes('SECRET'), everything);
    assert.deepEqual(logs, [
      { level: 'warn', event: 'source_failed', source: a, reason: 'adapter_threw', error_name: 'TypeError' },
    ]);
  });

  it('reports partial completeness when every source fails, even with zero records', async () => {
    const { events, result } = await collect({
      sources: [
        scripted(ref('b'), [], { then: { throw: new SourceError('rate_limited') } }).adapter,
        scripted(ref('a'), [], { then: { throw: new Error('boom') } }).adapter,
      ],
      query: list,
      deadline: inMs(1000),
      clock: fixedClock,
    });
    assert.equal(events.length, 2);
    assert.deepEqual(result.metadata, {
      retrieval_mode: 'live_provider',
      cache_baseline_applied: false,
      source_delta_applied: false,
      completeness: 'partial',
      result_count: 0,
      observed_at: '2026-10-08T12:00:00+00:00',
      provenance: [],
      source_errors: [
        { source: ref('a'), error: { code: 'source_unavailable' } },
        { source: ref('b'), error: { code: 'rate_limited' } },
      ],
    });
  });
});

describe('runFederation operations', () => {
  it('stops reading a source once it delivered search_people limit records', async () => {
    const a = ref('a');
    const { adapter: source, log } = scripted(a, [
      records(a, 3, 'p'),
      records(a, 3, 'q'),
      records(a, 3, 'z'),
    ]);
    const { events, result } = await collect({
      sources: [source],
      query: { operation: 'search_people', query: '', limit: 4 },
      deadline: inMs(1000),
    });
    assert.deepEqual(summary(events), ['a page 1 (3)', 'a page 2 (1)', 'a complete 2']);
    assert.equal(result.records.length, 4);
    assert.equal(log.pulls, 2);
    assert.equal(log.returned, true);
    assert.deepEqual(log.query, { operation: 'search_people', query: '', limit: 4 });
  });

  it('resolves get_person to the cluster holding the anchor record, across sources', async () => {
    const hr = ref('acme-hr', 'hr');
    const crm = ref('acme-crm', 'crm');
    const anchor = rawRecord(crm, 'c-7', { email: 'kim@example.com' });
    const record_ref = singleKeyRecordRef(anchor);
    const { events, result } = await collect({
      sources: [
        adapter(hr, [[rawRecord(hr, 'h-1', { email: 'KIM@example.com' }), rawRecord(hr, 'h-2')]]),
        adapter(crm, [[anchor, rawRecord(crm, 'c-8')]]),
      ],
      query: { operation: 'get_person', record_ref },
      deadline: inMs(1000),
    });
    assert.equal(result.records.length, 1);
    const [person] = result.records;
    assert.deepEqual(
      person?.sources.map((s) => s.external_id),
      ['c-7', 'h-1'],
    );
    assert.deepEqual(person?.identity_match, { matched_on: ['email'], source_count: 2 });
    // Pages carry only the anchor's page-local cluster; hr's matching record joins in the final result.
    assert.deepEqual(summary(events).sort(), [
      'acme-crm complete 1',
      'acme-crm page 1 (1)',
      'acme-hr complete 0',
    ]);
  });

  it('returns no record for a get_person ref nobody holds', async () => {
    const a = ref('a');
    const { result } = await collect({
      sources: [adapter(a, [records(a, 5)])],
      query: { operation: 'get_person', record_ref: 'bos:person:nobody' },
      deadline: inMs(1000),
    });
    assert.deepEqual(result.records, []);
    assert.equal(result.metadata.completeness, 'complete');
  });

  it('passes the query and a deadline no later than the operation budget to each adapter', async () => {
    const a = ref('a');
    const { adapter: source, log } = scripted(a, [], { timeoutMs: 300 });
    const deadline = inMs(5000);
    const before = Date.now();
    await runFederation({ sources: [source], query: list, deadline });
    assert.deepEqual(log.query, list);
    const given = log.options?.deadline ?? 0;
    assert.ok(
      given >= before + 300 && given <= Date.now() + 300,
      `own timeout bounds the deadline: ${given}`,
    );
  });
});

describe('runFederation scheduling', () => {
  it('starts reads in the given source order, never more than maxConcurrentSources at once', async () => {
    const started: string[] = [];
    let inFlight = 0;
    let most = 0;
    const delays = [40, 5, 25, 5, 10, 30];
    const sources = delays.map((delayMs, i) =>
      scripted(ref(`s${i}`), [records(ref(`s${i}`), 1)], {
        delayMs,
        onStart: () => {
          started.push(`s${i}`);
          most = Math.max(most, ++inFlight);
        },
        onEnd: () => inFlight--,
      }),
    );
    await runFederation({
      sources: sources.map((s) => s.adapter),
      query: list,
      deadline: inMs(5000),
      maxConcurrentSources: 2,
    });
    assert.deepEqual(started, ['s0', 's1', 's2', 's3', 's4', 's5']);
    assert.equal(most, 2);
  });
});

describe('runFederation options', () => {
  it('rejects a source listed twice and a non-positive pageSize before reading anything', async () => {
    const a = ref('a');
    const { adapter: source, log } = scripted(a, []);
    await assert.rejects(runFederation({ sources: [source, source], query: list, deadline: inMs(100) }), {
      name: 'FederationError',
      code: 'invalid_options',
    });
    await assert.rejects(
      runFederation({ sources: [source], query: list, deadline: inMs(100), pageSize: 0 }),
      {
        code: 'invalid_options',
      },
    );
    assert.equal(log.started, 0);
  });
});
