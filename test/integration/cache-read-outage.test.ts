/**
 * A cached source whose provider throttles, fails or is gone, against the real local SCIM server and DynamoDB
 * Local (no mocks): the read still answers from the baseline, with the source's error code, `partial`
 * completeness and the metadata docs/bos.md documents for a baseline answered alone; and once the provider is
 * back, the same read is brought current by its delta again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FederationResult, SourceAdapter, SourceQuery } from '../../lambda/federation/index.js';
import { runFederation } from '../../lambda/federation/index.js';
import { createCachedSource } from '../../lambda/sources/cache/cached-source.js';
import { adapterChangeFeed } from '../../lambda/sources/cache/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../lambda/sources/scim/index.js';
import { startScimServer } from '../../local/providers/scim/index.js';
import type { ScimServer } from '../../local/providers/scim/index.js';
import { baselineRecords, startLocalBaseline, syncOnce } from '../helpers/cache-oracle.js';
import type { LocalBaseline } from '../helpers/cache-oracle.js';
import { javaSuite } from '../helpers/java.js';

const HOUR = 3_600_000;
/** The token the source is configured with (the server's own `token` follows a rotation). */
let TOKEN = '';
const LIST: SourceQuery = { operation: 'list_people' };

/** What each provider failure does to the server, and the code the read must name. */
const FAILURES = [
  {
    name: 'throttles every request',
    code: 'rate_limited',
    start: (scim: ScimServer) => (scim.behaviour.rateLimit = { retryAfterSeconds: 1 }),
    stop: (scim: ScimServer) => delete scim.behaviour.rateLimit,
  },
  {
    name: 'answers 503 to every request',
    code: 'source_unavailable',
    start: (scim: ScimServer) => (scim.behaviour.unavailable = {}),
    stop: (scim: ScimServer) => delete scim.behaviour.unavailable,
  },
  {
    name: 'refuses the configured token',
    code: 'provider_authorization_required',
    start: (scim: ScimServer) => (scim.behaviour.token = 'rotated-at-the-provider'),
    stop: (scim: ScimServer) => (scim.behaviour.token = TOKEN),
  },
] as const;

describe('a cached source whose provider fails', javaSuite(240_000), () => {
  let baseline: LocalBaseline;
  let scim: ScimServer;
  let cached: SourceAdapter;

  /** The `scim` adapter of `acme-scim` at `baseUrl`, with the configured token. */
  function liveSource(baseUrl: string): SourceAdapter {
    const spec: SourceSpec = {
      source_id: 'acme-scim',
      adapter: 'scim',
      options: { base_url: baseUrl, page_size: 50 },
      credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(TOKEN) },
    };
    return createScimSource(spec, scimOptionsFromSpec(spec, true), { allowLoopbackHttp: true });
  }

  /** That adapter cached on the one baseline. */
  function cachedSource(baseUrl: string): SourceAdapter {
    const live = liveSource(baseUrl);
    return createCachedSource({
      live,
      sourceId: 'acme-scim',
      store: baseline.store,
      feed: adapterChangeFeed(live),
      policy: { refreshMs: HOUR, maxStalenessMs: HOUR },
    });
  }

  /** One read of the cached source alone through the engine, within a few seconds. */
  const read = (query: SourceQuery, source = cached): Promise<FederationResult> =>
    runFederation({ sources: [source], query, deadline: Date.now() + 5_000 });

  before(async () => {
    [baseline, scim] = await Promise.all([
      startLocalBaseline('it-outage-'),
      startScimServer({ population: { name: 'acme-scim', size: 60, overlap: 0 } }),
    ]);
    TOKEN = scim.token;
    cached = cachedSource(scim.baseUrl);
    const feed = adapterChangeFeed(liveSource(scim.baseUrl));
    assert.equal((await syncOnce('acme-scim', baseline.store, feed, HOUR)).result, 'full');
  });

  after(async () => {
    await Promise.all([baseline?.stop(), scim?.close()]);
  });

  for (const failure of FAILURES)
    it(`answers from the baseline, naming ${failure.code}, while the provider ${failure.name}`, async () => {
      // Prepare
      const held = await baselineRecords(baseline.store, 'acme-scim');
      failure.start(scim);
      try {
        // Act
        const result = await read(LIST);
        // Assess
        const answered = result.records.flatMap((record) => record.sources.map((s) => s.external_id));
        assert.deepEqual(answered.sort(), held.map((record) => record.external_id).sort());
        assert.equal(result.metadata.completeness, 'partial');
        assert.deepEqual(
          result.metadata.source_errors.map((e) => [e.source.source_identity, e.error.code]),
          [['acme-scim', failure.code]],
        );
        assert.equal(result.metadata.retrieval_mode, 'cache_baseline');
        assert.equal(result.metadata.cache_baseline_applied, true);
        assert.equal(result.metadata.source_delta_applied, false);
      } finally {
        failure.stop(scim);
      }
      // Act and assess: the provider is back, and the same read applies its delta again
      const recovered = await read(LIST);
      assert.equal(recovered.metadata.completeness, 'complete');
      assert.equal(recovered.metadata.retrieval_mode, 'cache_baseline_with_delta');
    });

  it('answers from the baseline, naming source_unavailable, when the provider cannot be reached', async () => {
    // Prepare: the same source, its provider moved to a port nobody listens on
    const unreachable = cachedSource('http://127.0.0.1:1/scim/v2');
    // Act
    const result = await read(LIST, unreachable);
    // Assess
    assert.equal(result.records.length, (await baselineRecords(baseline.store, 'acme-scim')).length);
    assert.deepEqual(
      result.metadata.source_errors.map((e) => e.error.code),
      ['source_unavailable'],
    );
    assert.equal(result.metadata.retrieval_mode, 'cache_baseline');
  });
});
