/**
 * The composition root wraps a source whose definition opts in to the cache with the cached read path,
 * when the cache is wired and the source's kind has a change feed; every other source reads live.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../lambda/aws/index.js';
import type { SourceDefinition } from '../../../lambda/bos/index.js';
import { runFederation } from '../../../lambda/federation/index.js';
import type { SourceAdapter } from '../../../lambda/federation/index.js';
import { silentLogger } from '../../../lambda/mcp/index.js';
import { composeSources } from '../../../lambda/handlers/compose-sources.js';
import type { SourceCacheWiring } from '../../../lambda/handlers/compose-sources.js';
import { fullSync, MemoryBaselineStore, MemoryProvider } from '../../helpers/memory-baseline.js';

const LOCAL = loadConfig({});
const hr = (source_id: string, cache?: SourceDefinition['cache']): SourceDefinition => ({
  source_id,
  adapter: 'fixture',
  options: { source_type: 'hr', record_count: 3, latency_ms: 0 },
  ...(cache === undefined ? {} : { cache }),
});

async function modeOf(adapter: SourceAdapter | undefined) {
  assert.ok(adapter !== undefined);
  const result = await runFederation({
    sources: [adapter],
    query: { operation: 'list_people' },
    deadline: Date.now() + 2000,
  });
  return result.metadata.retrieval_mode;
}

async function wiring(sourceId: string): Promise<SourceCacheWiring & { store: MemoryBaselineStore }> {
  const provider = new MemoryProvider({ source_type: 'hr', source_identity: sourceId });
  provider.upsert('p1');
  const store = new MemoryBaselineStore();
  await fullSync(store, sourceId, provider.feed);
  return { store, feedFor: (spec) => (spec.adapter === 'fixture' ? provider.feed : undefined) };
}

describe('composeSources and the source cache', () => {
  it('reads an opted-in source through its baseline and any other source live', async () => {
    const cache = await wiring('hr-cached');
    const { sources } = composeSources(LOCAL, {}, silentLogger, {
      definitions: [hr('hr-cached', { enabled: true, max_staleness: 'PT1H' }), hr('hr-live')],
      cache,
    });
    assert.equal(await modeOf(sources.get('hr-cached')), 'cache_baseline_with_delta');
    assert.equal(await modeOf(sources.get('hr-live')), 'live_provider');
    assert.deepEqual(new Set(cache.store.touched), new Set(['hr-cached']));
  });

  it('reads an opted-in source live when no cache is wired or its kind has no change feed', async () => {
    const definitions = [hr('hr-cached', { enabled: true })];
    const unwired = composeSources(LOCAL, {}, silentLogger, { definitions });
    assert.equal(await modeOf(unwired.sources.get('hr-cached')), 'live_provider');
    const cache = await wiring('hr-cached');
    const featureless = composeSources(LOCAL, {}, silentLogger, {
      definitions,
      cache: { store: cache.store, feedFor: () => undefined },
    });
    assert.equal(await modeOf(featureless.sources.get('hr-cached')), 'live_provider');
  });

  it('selects a cached okta source’s people with Okta’s prefix search, not the kernel’s containment', async () => {
    // Prepare: a baseline of two Okta people; only one has a name that starts with the text
    const provider = new MemoryProvider({ source_type: 'okta', source_identity: 'acme-okta' });
    provider.upsert('00u1', {
      display_name: 'Ann Berg',
      attributes: { first_name: 'Ann', last_name: 'Berg' },
    });
    provider.upsert('00u2', {
      display_name: 'Jo Hanna',
      attributes: { first_name: 'Jo', last_name: 'Hanna' },
    });
    const store = new MemoryBaselineStore();
    await fullSync(store, 'acme-okta', provider.feed);
    const okta: SourceDefinition = {
      source_id: 'acme-okta',
      adapter: 'okta',
      options: { org_url: 'https://acme.okta.example', client_id: '0oa1', key_id: 'k1' },
      credential_ref: 'ACME_OKTA_KEY',
      cache: { enabled: true, max_staleness: 'PT1H' },
    };
    const { sources } = composeSources(LOCAL, {}, silentLogger, {
      definitions: [okta],
      cache: { store, feedFor: () => provider.feed },
    });
    // Act
    const result = await runFederation({
      sources: [sources.get('acme-okta')!],
      query: { operation: 'search_people', query: 'an' },
      deadline: Date.now() + 2000,
    });
    // Assess: `Ann` starts with the text, `Hanna` only contains it
    assert.equal(result.metadata.retrieval_mode, 'cache_baseline_with_delta');
    assert.deepEqual(
      result.records.map((r) => r.display_name),
      ['Ann Berg'],
    );
  });
});
