/**
 * Deterministic fixture sources: generation, overlap, queries, paging, latency and every failure mode,
 * read through the real engine where the engine's handling is the point.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { normaliseEmail, normalisePhone, runFederation } from '../../../lambda/federation/index.js';
import type {
  FederationEvent,
  FederationLogEntry,
  RawRecord,
  SourceAdapter,
  SourceQuery,
} from '../../../lambda/federation/index.js';
import {
  createDemoSources,
  createFixtureSource,
  DEMO_SOURCE_OPTIONS,
  fixtureRecords,
  sleep,
} from '../../../lambda/sources/index.js';
import type { FixtureSourceOptions } from '../../../lambda/sources/index.js';

const list: SourceQuery = { operation: 'list_people' };
const base: FixtureSourceOptions = { source_type: 'hr', source_identity: 'acme-hr', recordCount: 240 };

async function readAll(
  adapter: SourceAdapter,
  query: SourceQuery = list,
  signal = new AbortController().signal,
) {
  const pages: (readonly RawRecord[])[] = [];
  for await (const page of adapter.read(query, { signal, deadline: Date.now() + 5000 })) pages.push(page);
  return pages;
}

async function federateAll(sources: SourceAdapter[], extra: { sourceTimeoutMs?: number } = {}) {
  const events: FederationEvent[] = [];
  const logs: FederationLogEntry[] = [];
  const result = await runFederation({
    sources,
    query: list,
    deadline: Date.now() + 5000,
    onEvent: (e) => void events.push(e),
    onLog: (l) => logs.push(l),
    ...extra,
  });
  return { events, logs, result };
}

const terminalOf = (events: FederationEvent[]) => {
  const t = events.find((e) => e.type !== 'page');
  return t === undefined ? undefined : `${t.type === 'error' ? t.code : t.type} ${t.pageIndex}`;
};

describe('fixtureRecords', () => {
  it('generates the same records for the same options and different ones for another seed', () => {
    assert.equal(JSON.stringify(fixtureRecords(base)), JSON.stringify(fixtureRecords(base)));
    assert.notEqual(
      JSON.stringify(fixtureRecords({ ...base, seed: 7 })),
      JSON.stringify(fixtureRecords(base)),
    );
  });

  it('claims its own source, unique external ids and joinable identity keys', () => {
    const records = fixtureRecords(base);
    assert.equal(records.length, 240);
    assert.ok(records.every((r) => r.source_type === 'hr' && r.source_identity === 'acme-hr'));
    assert.equal(new Set(records.map((r) => r.external_id)).size, 240);
    assert.equal(new Set(records.map((r) => normaliseEmail(r.email))).size, 240);
    assert.ok(records.every((r) => normalisePhone(r.phone) !== null));
  });

  it('shares emails with another source for the requested share of records', () => {
    const hrEmails = new Set(fixtureRecords(base).map((r) => normaliseEmail(r.email)));
    const crm = fixtureRecords({
      source_type: 'crm',
      source_identity: 'acme-crm',
      recordCount: 180,
      overlaps: [{ with: 'acme-hr', withRecordCount: 240, by: 'email', share: 0.6 }],
    });
    assert.equal(crm.filter((r) => hrEmails.has(normaliseEmail(r.email))).length, 108);
    assert.ok(
      crm.some((r) => r.email !== normaliseEmail(r.email)),
      'some shared emails need normalising',
    );
  });

  it('shares phones with another source for the requested share of records', () => {
    const hrPhones = new Set(fixtureRecords(base).map((r) => normalisePhone(r.phone)));
    const dir = fixtureRecords({
      source_type: 'directory',
      source_identity: 'acme-directory',
      recordCount: 1200,
      overlaps: [{ with: 'acme-hr', withRecordCount: 240, by: 'phone', share: 0.1 }],
    });
    assert.equal(dir.filter((r) => hrPhones.has(normalisePhone(r.phone))).length, 120);
  });
});

describe('createFixtureSource queries and paging', () => {
  it('yields provider pages of providerPageSize', async () => {
    const pages = await readAll(createFixtureSource({ ...base, providerPageSize: 100 }));
    assert.deepEqual(
      pages.map((p) => p.length),
      [100, 100, 40],
    );
  });

  it('filters list_people by updated_since', async () => {
    const all = fixtureRecords(base);
    const since = [...all].map((r) => r.observed_at).sort()[120] ?? '';
    const pages = await readAll(createFixtureSource(base), {
      operation: 'list_people',
      updated_since: since,
    });
    const got = pages.flat();
    assert.equal(got.length, all.filter((r) => r.observed_at >= since).length);
    assert.ok(got.length > 0 && got.length < 240 && got.every((r) => r.observed_at >= since));
  });

  it('searches names and emails case-insensitively and honours limit', async () => {
    const name = fixtureRecords(base)[0]?.display_name ?? '';
    const needle = name.split(' ')[1]?.toUpperCase() ?? '';
    const hits = (
      await readAll(createFixtureSource(base), { operation: 'search_people', query: needle })
    ).flat();
    assert.ok(
      hits.length > 0 && hits.every((r) => `${r.display_name} ${r.email}`.toUpperCase().includes(needle)),
    );
    const limited = (
      await readAll(createFixtureSource(base), { operation: 'search_people', query: '', limit: 5 })
    ).flat();
    assert.equal(limited.length, 5);
  });

  it('wakes a sleeping page at once when the read is aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await assert.rejects(sleeping, { message: 'stop' });
    assert.ok(Date.now() - started < 2000);
  });
});

describe('createFixtureSource failure modes through the engine', () => {
  it('hangs after N pages, honours abort and ends with source_timeout', async () => {
    const { events, result } = await federateAll(
      [createFixtureSource({ ...base, providerPageSize: 50, failure: { mode: 'hang', afterPages: 2 } })],
      { sourceTimeoutMs: 150 },
    );
    assert.equal(terminalOf(events), 'source_timeout 2');
    assert.equal(result.records.length, 100);
  });

  it('throws a provider error whose fake secret never surfaces', async () => {
    const { events, logs, result } = await federateAll([
      createFixtureSource({ ...base, failure: { mode: 'throw', afterPages: 1 } }),
    ]);
    assert.equal(terminalOf(events), 'source_unavailable 1');
    const text = JSON.stringify({ events, logs, result });
    assert.ok(!/FAKE-SECRET|hunter2|Bearer/.test(text));
  });

  for (const code of ['rate_limited', 'provider_authorization_required', 'source_unavailable'] as const) {
    it(`fails with ${code} after N pages`, async () => {
      const { events } = await federateAll([
        createFixtureSource({ ...base, failure: { mode: 'error', code, afterPages: 1 } }),
      ]);
      assert.equal(terminalOf(events), `${code} 1`);
    });
  }

  it('claims another source and ends with source_identity_mismatch', async () => {
    const { events, result } = await federateAll([
      createFixtureSource({ ...base, failure: { mode: 'identity_mismatch', afterPages: 1 } }),
    ]);
    assert.equal(terminalOf(events), 'source_identity_mismatch 1');
    assert.ok(result.records.every((r) => r.sources.every((s) => s.source_identity === 'acme-hr')));
  });
});

describe('the demo preset', () => {
  it('names the five demo sources with their types, sizes and timeouts', () => {
    assert.deepEqual(
      DEMO_SOURCE_OPTIONS.map((o) => [o.source_type, o.source_identity, o.recordCount, o.timeoutMs]),
      [
        ['hr', 'acme-hr', 240, undefined],
        ['crm', 'acme-crm', 180, undefined],
        ['directory', 'acme-directory', 1200, undefined],
        ['archive', 'acme-archive', 0, undefined],
        ['legacy', 'acme-legacy', 150, 1500],
      ],
    );
    assert.equal(DEMO_SOURCE_OPTIONS.find((o) => o.source_identity === 'acme-legacy')?.failure?.mode, 'hang');
  });

  it('federates hr, crm, directory and archive completely, merging shared people', async () => {
    const sources = createDemoSources().filter((s) => s.source.source_identity !== 'acme-legacy');
    const { events, result } = await federateAll(sources);
    const terminals = events
      .filter((e) => e.type !== 'page')
      .map((e) => `${e.source.source_identity} ${e.type} ${e.pageIndex}`);
    assert.deepEqual(terminals.sort(), [
      'acme-archive complete 0',
      'acme-crm complete 2',
      'acme-directory complete 12',
      'acme-hr complete 3',
    ]);
    assert.equal(result.metadata.completeness, 'complete');
    // 1,620 records: 108 crm emails and 120 directory phones point at hr people (some at the same one).
    assert.ok(result.records.length < 1620 - 108);
    assert.ok(result.records.some((r) => r.identity_match?.matched_on.includes('email')));
    assert.ok(result.records.some((r) => r.identity_match?.matched_on.includes('phone')));
  });
});
