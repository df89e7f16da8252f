/**
 * Building adapters by kind (`buildSource`), the stand-in for a broken definition, and the catalog that
 * keeps table-backed definitions per execution environment with a TTL, reloading them in the background
 * from half of it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runFederation } from '../../../lambda/federation/index.js';
import type { FederationEvent, SourceAdapter } from '../../../lambda/federation/index.js';
import {
  buildSource,
  createFixtureSourceFactory,
  createSourceCatalog,
  SourceConfigError,
  unavailableSource,
} from '../../../lambda/sources/index.js';
import type { SourceSpec, UnreadableSource } from '../../../lambda/sources/index.js';

const factories = { fixture: createFixtureSourceFactory() };

const fixture = (id: string, recordCount = 2, type = 'hr'): SourceSpec => ({
  source_id: id,
  adapter: 'fixture',
  options: { source_type: type, record_count: recordCount },
});

async function terminals(sources: SourceAdapter[]): Promise<Record<string, string>> {
  const events: FederationEvent[] = [];
  await runFederation({
    sources,
    query: { operation: 'list_people' },
    deadline: Date.now() + 5000,
    onEvent: (e) => void events.push(e),
  });
  return Object.fromEntries(
    events
      .filter((e) => e.type !== 'page')
      .map((e) => [e.source.source_identity, e.type === 'error' ? e.code : e.type]),
  );
}

/**
 * A catalog over a mutable list of entries, with a hand-driven clock and a count of loads. Background
 * reloads are off (`refreshAfterMs` = the TTL) unless asked for, so these cases see the TTL alone.
 */
function harness(initial: Array<SourceSpec | UnreadableSource>, refreshAfterMs = 30_000) {
  const state = { entries: initial, now: 1_000, loads: 0, fail: false };
  const invalid: string[] = [];
  const loadErrors: unknown[] = [];
  const catalog = createSourceCatalog({
    load: () => {
      state.loads += 1;
      return state.fail ? Promise.reject(new Error('store down')) : Promise.resolve(state.entries);
    },
    build: (spec) => buildSource(spec, factories),
    onInvalid: (id) => void invalid.push(id),
    onLoadError: (error) => void loadErrors.push(error),
    ttlMs: 30_000,
    refreshAfterMs,
    retryMs: 1_000,
    clock: () => state.now,
  });
  return { catalog, state, invalid, loadErrors };
}

/**
 * A catalog (defaults: TTL 30 s, background reload from 15 s, retry 1 s) whose loads stay pending until
 * `settle()`: each load answers the entries, or the failure, current when it is settled.
 */
function gatedHarness(initial: Array<SourceSpec | UnreadableSource>) {
  const state = { entries: initial, now: 1_000, loads: 0, fail: false };
  const pending: Array<() => void> = [];
  const loadErrors: unknown[] = [];
  const catalog = createSourceCatalog({
    load: () => {
      state.loads += 1;
      return new Promise((resolve, reject) =>
        pending.push(() => (state.fail ? reject(new Error('store down')) : resolve(state.entries))),
      );
    },
    build: (spec) => buildSource(spec, factories),
    onLoadError: (error) => void loadErrors.push(error),
    clock: () => state.now,
  });
  /** Settles the oldest pending load, or the newest. */
  const settle = (which: 'oldest' | 'newest' = 'oldest') =>
    (which === 'oldest' ? pending.splice(0, 1) : pending.splice(-1)).forEach((s) => s());
  return { catalog, state, settle, loadErrors };
}

/** Turns of the event loop: a background load (started after `setImmediate`) and its answer have run. */
const turns = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A first load through the gated harness. */
async function loaded(initial: Array<SourceSpec | UnreadableSource>) {
  const harnessed = gatedHarness(initial);
  const first = harnessed.catalog.refresh();
  await turns();
  harnessed.settle();
  await first;
  return harnessed;
}

describe('buildSource', () => {
  it('builds through the factory registered for the kind', () => {
    const adapter = buildSource(fixture('acme-a'), factories);
    assert.deepEqual(adapter.source, { source_type: 'hr', source_identity: 'acme-a' });
  });

  it('refuses an unknown kind, including names of Object.prototype, listing the known kinds', () => {
    for (const kind of ['scim', 'constructor', '__proto__']) {
      assert.throws(
        () => buildSource({ ...fixture('acme-a'), adapter: kind }, factories),
        (e: unknown) =>
          e instanceof SourceConfigError &&
          e.code === 'unknown_adapter' &&
          e.sourceId === 'acme-a' &&
          e.problems[0] === `adapter "${kind}" is not known (known: fixture)`,
        kind,
      );
    }
  });
});

describe('unavailableSource', () => {
  it('ends only its own source with source_unavailable, under its declared type', async () => {
    const broken = unavailableSource({
      source_id: 'acme-broken',
      adapter: 'scim',
      options: { source_type: 'crm' },
    });
    assert.deepEqual(broken.source, { source_type: 'crm', source_identity: 'acme-broken' });
    const healthy = buildSource(fixture('acme-a'), factories);
    assert.deepEqual(await terminals([broken, healthy]), {
      'acme-broken': 'source_unavailable',
      'acme-a': 'complete',
    });
    assert.equal(
      unavailableSource({ source_id: 'x', adapter: 'scim', options: {} }).source.source_type,
      'scim',
    );
  });
});

describe('the source catalog', () => {
  it('is empty until the first refresh loads it', async () => {
    const { catalog, state } = harness([fixture('acme-a'), fixture('acme-b')]);
    assert.equal(catalog.sources.size, 0);
    await catalog.refresh();
    assert.deepEqual([...catalog.sources.keys()], ['acme-a', 'acme-b']);
    assert.equal(state.loads, 1);
  });

  it('reads the definitions again only once the TTL has passed', async () => {
    const { catalog, state } = harness([fixture('acme-a')]);
    await catalog.refresh();
    state.now += 29_999;
    await catalog.refresh();
    assert.equal(state.loads, 1);
    state.now += 1;
    await catalog.refresh();
    assert.equal(state.loads, 2);
  });

  it('shares one load among concurrent refreshes', async () => {
    const { catalog, state } = harness([fixture('acme-a')]);
    await Promise.all([catalog.refresh(), catalog.refresh(), catalog.refresh()]);
    assert.equal(state.loads, 1);
  });

  it('keeps the adapter of an unchanged definition, replaces a changed one and drops a removed one', async () => {
    // Prepare
    const { catalog, state } = harness([fixture('acme-a'), fixture('acme-b')]);
    await catalog.refresh();
    const a = catalog.sources.get('acme-a');
    const b = catalog.sources.get('acme-b');
    // Act: the same definition of acme-a with its keys in another order; acme-b changed; acme-c added.
    state.entries = [
      { source_id: 'acme-a', adapter: 'fixture', options: { record_count: 2, source_type: 'hr' } },
      fixture('acme-b', 5),
    ];
    state.now += 30_000;
    await catalog.refresh();
    // Assess
    assert.equal(catalog.sources.get('acme-a'), a);
    assert.notEqual(catalog.sources.get('acme-b'), b);
    state.entries = [fixture('acme-b', 5)];
    state.now += 30_000;
    await catalog.refresh();
    assert.deepEqual([...catalog.sources.keys()], ['acme-b']);
  });

  it('fails only the source of a refused or unreadable definition, and reports each once', async () => {
    // Prepare
    const { catalog, state, invalid } = harness([
      fixture('acme-a'),
      { ...fixture('acme-scim'), adapter: 'scim' },
      { source_id: 'acme-bad', adapter: 'fixture', options: { source_type: 'hr' } },
      {
        source_id: 'acme-garbled',
        error: new Error('directory item SOURCES / SOURCE#acme-garbled: bad "options"'),
      },
    ]);
    // Act
    await catalog.refresh();
    state.now += 30_000;
    await catalog.refresh();
    // Assess
    assert.deepEqual(invalid, ['acme-scim', 'acme-bad', 'acme-garbled']);
    assert.deepEqual(await terminals([...catalog.sources.values()]), {
      'acme-a': 'complete',
      'acme-scim': 'source_unavailable',
      'acme-bad': 'source_unavailable',
      'acme-garbled': 'source_unavailable',
    });
  });

  it('keeps the last good adapters through a store outage and retries after retryMs', async () => {
    // Prepare
    const { catalog, state, loadErrors } = harness([fixture('acme-a')]);
    await catalog.refresh();
    const a = catalog.sources.get('acme-a');
    state.fail = true;
    state.now += 30_000;
    // Act
    await catalog.refresh();
    await catalog.refresh();
    // Assess
    assert.equal(loadErrors.length, 1);
    assert.equal(state.loads, 2, 'no second read within retryMs');
    assert.equal(catalog.sources.get('acme-a'), a);
    state.fail = false;
    state.now += 1_000;
    await catalog.refresh();
    assert.equal(state.loads, 3);
  });

  it('tries again on every refresh while no load has ever succeeded', async () => {
    const { catalog, state, loadErrors } = harness([fixture('acme-a')]);
    state.fail = true;
    await catalog.refresh();
    await catalog.refresh();
    assert.equal(loadErrors.length, 2);
    state.fail = false;
    await catalog.refresh();
    assert.deepEqual([...catalog.sources.keys()], ['acme-a']);
  });
});

describe('the source catalog reloading in the background', () => {
  it('does not reload while the definitions are younger than half the TTL', async () => {
    const { catalog, state } = await loaded([fixture('acme-a')]);
    state.now += 14_999;
    await catalog.refresh();
    await turns();
    assert.equal(state.loads, 1);
  });

  it('answers at once past half the TTL and swaps in the reloaded adapters when the load lands', async () => {
    // Prepare
    const { catalog, state, settle } = await loaded([fixture('acme-a')]);
    const before = catalog.sources.get('acme-a');
    state.entries = [fixture('acme-a', 5)];
    state.now += 15_000;
    // Act: the refresh resolves while the reload it started is still pending.
    await catalog.refresh();
    await turns();
    // Assess
    assert.equal(state.loads, 2, 'a reload was started');
    assert.equal(catalog.sources.get('acme-a'), before, 'the call goes on with the current adapters');
    settle();
    await turns();
    assert.notEqual(catalog.sources.get('acme-a'), before);
    // The reload counts as fresh from when it started: no load on a call until 30 s after that.
    state.now += 29_999;
    await catalog.refresh();
    await turns();
    assert.equal(state.loads, 3, 'past half the new TTL: another background reload only');
  });

  it('starts one background reload however many calls ask while it is in flight', async () => {
    const { catalog, state } = await loaded([fixture('acme-a')]);
    state.now += 20_000;
    await Promise.all([catalog.refresh(), catalog.refresh()]);
    await turns();
    await catalog.refresh();
    await turns();
    assert.equal(state.loads, 2);
  });

  it('keeps the adapters through a failed background reload and tries again after retryMs', async () => {
    // Prepare
    const { catalog, state, settle, loadErrors } = await loaded([fixture('acme-a')]);
    const before = catalog.sources.get('acme-a');
    state.fail = true;
    state.now += 15_000;
    // Act
    await catalog.refresh();
    await turns();
    settle();
    await turns();
    state.now += 999;
    await catalog.refresh();
    await turns();
    const loadsWithinRetry = state.loads;
    state.now += 1;
    await catalog.refresh();
    await turns();
    // Assess
    assert.equal(loadErrors.length, 1);
    assert.equal(loadsWithinRetry, 2);
    assert.equal(state.loads, 3);
    assert.equal(catalog.sources.get('acme-a'), before, 'the adapters in service are kept');
  });

  it('makes a call past the TTL wait for a background reload that just started', async () => {
    const { catalog, state, settle } = await loaded([fixture('acme-a')]);
    state.now += 29_900;
    await catalog.refresh();
    await turns();
    state.entries = [fixture('acme-b')];
    state.now += 100;
    let done = false;
    const waiting = catalog.refresh().then(() => {
      done = true;
    });
    await turns();
    assert.equal(done, false, 'the expired catalog is not used');
    assert.equal(state.loads, 2, 'the call shares the reload in flight');
    settle();
    await waiting;
    assert.deepEqual([...catalog.sources.keys()], ['acme-b']);
  });

  it('does not make a call past the TTL wait for a background reload stuck longer than retryMs', async () => {
    // Prepare: a reload started at 15 s never answers (e.g. frozen with its environment).
    const { catalog, state, settle } = await loaded([fixture('acme-a')]);
    state.now += 15_000;
    await catalog.refresh();
    await turns();
    // Act
    state.entries = [fixture('acme-b')];
    state.now += 15_000;
    const own = catalog.refresh();
    await turns();
    assert.equal(state.loads, 3, 'the call started its own load');
    settle('newest');
    await own;
    assert.deepEqual([...catalog.sources.keys()], ['acme-b']);
    // Assess: the older reload, answering last and with other definitions, does not replace them.
    state.entries = [fixture('acme-c')];
    settle('oldest');
    await turns();
    assert.deepEqual([...catalog.sources.keys()], ['acme-b']);
  });
});
