/**
 * `traceSource` and the fixture presets: what the local stack's cancellation tests rely on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SourceQuery } from '../../../lambda/federation/index.js';
import {
  createFixtureSource,
  DEMO_SOURCE_OPTIONS,
  fixturePreset,
  scaleLatency,
  traceSource,
} from '../../../lambda/sources/index.js';
import type { SourceTraceEvent } from '../../../lambda/sources/index.js';

const LIST: SourceQuery = { operation: 'list_people' };

describe('traceSource', () => {
  it('reports the read, one pull per provider page requested, and the end of a read that completes', async () => {
    // Prepare
    const events: SourceTraceEvent[] = [];
    const adapter = traceSource(
      createFixtureSource({ source_type: 't', source_identity: 'three', recordCount: 250 }),
      (e) => events.push(e),
    );
    // Act
    const pages: number[] = [];
    for await (const page of adapter.read(LIST, { signal: new AbortController().signal, deadline: Infinity }))
      pages.push(page.length);
    // Assess
    assert.deepEqual(pages, [100, 100, 50]);
    assert.deepEqual(
      events.map((e) => `${e.kind}${e.pull ?? ''}`),
      ['read', 'pull1', 'pull2', 'pull3', 'pull4', 'end'],
    );
    assert.ok(events.every((e) => e.source_identity === 'three'));
  });

  it('reports an abort that reaches a read in progress, then no further pull', async () => {
    // Prepare
    const events: SourceTraceEvent[] = [];
    const controller = new AbortController();
    const adapter = traceSource(
      createFixtureSource({
        source_type: 't',
        source_identity: 'hangs',
        recordCount: 10,
        failure: { mode: 'hang' },
      }),
      (e) => events.push(e),
    );
    // Act
    const reading = (async () => {
      for await (const _page of adapter.read(LIST, { signal: controller.signal, deadline: Infinity })) {
        // no page: the source hangs before its first one
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('client gone'));
    await assert.rejects(reading);
    // Assess
    assert.deepEqual(
      events.map((e) => e.kind),
      ['read', 'pull', 'abort', 'end'],
    );
  });

  it('does not report an abort that arrives after the read ended', async () => {
    // Prepare
    const events: SourceTraceEvent[] = [];
    const controller = new AbortController();
    const adapter = traceSource(
      createFixtureSource({ source_type: 't', source_identity: 'done', recordCount: 0 }),
      (e) => events.push(e),
    );
    // Act
    for await (const _page of adapter.read(LIST, { signal: controller.signal, deadline: Infinity })) {
      // empty source
    }
    controller.abort();
    // Assess
    assert.deepEqual(
      events.map((e) => e.kind),
      ['read', 'pull', 'end'],
    );
  });
});

describe('fixture presets', () => {
  it('keep the demo source pairs in every preset', () => {
    const pairs = (options: typeof DEMO_SOURCE_OPTIONS) =>
      options.map((o) => `${o.source_type}/${o.source_identity}`);
    for (const name of ['demo', 'synthetic', 'hanging'] as const)
      assert.deepEqual(pairs(fixturePreset(name)), pairs(DEMO_SOURCE_OPTIONS), name);
  });

  it('scale per-page latency and keep timeouts', () => {
    const scaled = scaleLatency(DEMO_SOURCE_OPTIONS, 0.25);
    assert.deepEqual(
      scaled.map((o) => o.latencyMs),
      DEMO_SOURCE_OPTIONS.map((o) =>
        o.latencyMs === undefined ? undefined : Math.round(o.latencyMs * 0.25),
      ),
    );
    assert.deepEqual(
      scaled.map((o) => o.timeoutMs),
      DEMO_SOURCE_OPTIONS.map((o) => o.timeoutMs),
    );
  });
});
