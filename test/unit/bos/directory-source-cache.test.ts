/**
 * A source definition's `cache` option: ISO 8601 durations, validated with the rest of a definition, off
 * unless set; the same rules for a document and for a stored item; the policy the composition root hands to
 * the sources.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../lambda/aws/index.js';
import {
  createMemoryDirectoryItems,
  DEMO_DIRECTORY_DOCUMENT,
  demoDirectoryWithProviders,
  documentToItems,
  parseDirectoryDocument,
} from '../../../lambda/bos/index.js';
import type { SourceDefinition } from '../../../lambda/bos/index.js';
import {
  itemToSourceDefinition,
  parseIsoDuration,
  sourceCacheMillis,
} from '../../../lambda/bos/directory/index.js';
import { composeSources } from '../../../lambda/handlers/compose-sources.js';
import type { Logger } from '../../../lambda/mcp/index.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The demo document with its first source given `cache`. */
function documentWithCache(cache: unknown): unknown {
  const document = JSON.parse(JSON.stringify(DEMO_DIRECTORY_DOCUMENT)) as {
    sources: Record<string, unknown>[];
  };
  document.sources[0]!['cache'] = cache;
  return document;
}

function problemsOf(cache: unknown): string[] {
  try {
    parseDirectoryDocument(documentWithCache(cache));
    return [];
  } catch (error) {
    return (error as { problems: string[] }).problems;
  }
}

describe('ISO 8601 durations', () => {
  it('reads weeks, days, hours, minutes and seconds', () => {
    assert.equal(parseIsoDuration('PT15M'), 900_000);
    assert.equal(parseIsoDuration('PT1H30M'), 5_400_000);
    assert.equal(parseIsoDuration('P1D'), 86_400_000);
    assert.equal(parseIsoDuration('P1W'), 604_800_000);
    assert.equal(parseIsoDuration('PT0.5S'), 500);
  });

  it('refuses years, months, empty designators and plain numbers', () => {
    for (const text of ['P1Y', 'P1M', 'P', 'PT', 'P1DT', '15m', '900', 'pt15m', ' PT15M'])
      assert.equal(parseIsoDuration(text), undefined, text);
  });
});

describe('a source definition’s cache option', () => {
  it('is off unless set, and a definition without it parses as before', () => {
    const parsed = parseDirectoryDocument(JSON.parse(JSON.stringify(DEMO_DIRECTORY_DOCUMENT)));
    assert.ok(parsed.sources.every((s) => s.cache === undefined));
  });

  it('keeps a valid option as written', () => {
    const parsed = parseDirectoryDocument(
      documentWithCache({ enabled: true, refresh: 'PT5M', max_staleness: 'PT30M' }),
    );
    assert.deepEqual(parsed.sources[0]?.cache, { enabled: true, refresh: 'PT5M', max_staleness: 'PT30M' });
  });

  it('lists every problem of a bad option by its path', () => {
    assert.deepEqual(problemsOf({ enabled: 'yes', refresh: '15 minutes', max_staleness: 'P1M' }), [
      'sources[0].cache.enabled must be a boolean',
      'sources[0].cache.refresh must be an ISO 8601 duration of weeks, days, hours, minutes or seconds (e.g. "PT15M")',
      'sources[0].cache.max_staleness must be an ISO 8601 duration of weeks, days, hours, minutes or seconds (e.g. "PT15M")',
    ]);
    assert.deepEqual(problemsOf(true), [
      'sources[0].cache must be an object { enabled, refresh?, max_staleness? }',
    ]);
    assert.deepEqual(problemsOf({ enabled: true, ttl: 'PT1H' }), [
      'sources[0].cache.ttl is not a cache option',
    ]);
  });

  it('refuses a refresh under a minute, a staleness under the refresh, and anything over seven days', () => {
    assert.deepEqual(problemsOf({ enabled: true, refresh: 'PT30S' }), [
      'sources[0].cache.refresh must be at least PT1M (a schedule runs at most once a minute)',
    ]);
    assert.deepEqual(problemsOf({ enabled: true, refresh: 'PT2H', max_staleness: 'PT1H' }), [
      'sources[0].cache.max_staleness must be at least refresh (else every read between syncs goes live)',
    ]);
    assert.deepEqual(problemsOf({ enabled: true, refresh: 'PT1H', max_staleness: 'P8D' }), [
      'sources[0].cache.max_staleness must be at most P7D',
    ]);
  });

  it('reads back from a stored item, and a malformed stored option fails that item', () => {
    const definition: SourceDefinition = {
      source_id: 's1',
      adapter: 'fixture',
      options: {},
      cache: { enabled: true, refresh: 'PT10M' },
    };
    const [item] = documentToItems({
      format: 'bos-directory/v1',
      principals: [],
      contexts: [],
      sources: [definition],
    });
    assert.ok(item !== undefined);
    assert.deepEqual(itemToSourceDefinition(item).cache, { enabled: true, refresh: 'PT10M' });
    assert.throws(() => itemToSourceDefinition({ ...item, cache: { enabled: true, refresh: 'soon' } }), {
      name: 'DirectoryDataError',
      message: /"cache"/,
    });
  });
});

describe('the cache policy on a source spec', () => {
  const FIXTURE = { source_type: 'hr', record_count: 3 };
  const definitions: SourceDefinition[] = [
    { source_id: 'cached', adapter: 'fixture', options: FIXTURE, cache: { enabled: true, refresh: 'PT5M' } },
    {
      source_id: 'disabled',
      adapter: 'fixture',
      options: FIXTURE,
      cache: { enabled: false, refresh: 'PT5M' },
    },
    { source_id: 'plain', adapter: 'fixture', options: FIXTURE },
  ];

  it('is the option in milliseconds (defaults filled) for an enabled source, absent otherwise', () => {
    const composed = composeSources(loadConfig({}), {}, quiet, { definitions });
    assert.deepEqual(composed.specOf('cached')?.cache, { refreshMs: 300_000, maxStalenessMs: 3_600_000 });
    assert.equal(composed.specOf('disabled')?.cache, undefined);
    assert.equal(composed.specOf('plain')?.cache, undefined);
  });

  it('is read from a table-backed definition too', async () => {
    const items = createMemoryDirectoryItems(
      documentToItems({ format: 'bos-directory/v1', principals: [], contexts: [], sources: definitions }),
    );
    const composed = composeSources(loadConfig({}), {}, quiet, { items });
    await composed.refresh();
    assert.deepEqual(composed.specOf('cached')?.cache, { refreshMs: 300_000, maxStalenessMs: 3_600_000 });
  });
});

describe('the demo directory with the local providers', () => {
  it('caches acme-scim and acme-entra, refreshed every minute, and reads every other source live', () => {
    const document = parseDirectoryDocument(
      JSON.parse(
        JSON.stringify(
          demoDirectoryWithProviders({
            scim: { baseUrl: 'http://127.0.0.1:1/scim/v2' },
            ldap: { url: 'ldap://127.0.0.1:2', baseDn: 'ou=people,dc=acme,dc=test', bindDn: 'cn=reader' },
            entra: {
              tenantId: 'tenant',
              clientId: 'client',
              graphUrl: 'http://127.0.0.1:3/v1.0',
              tokenUrl: 'http://127.0.0.1:4/token',
              resource: 'https://graph.microsoft.com',
            },
          }),
        ),
      ),
    );
    const cached = Object.fromEntries(
      document.sources.flatMap((source) =>
        source.cache?.enabled === true ? [[source.source_id, sourceCacheMillis(source.cache)]] : [],
      ),
    );
    assert.deepEqual(cached, {
      'acme-scim': { refreshMs: 60_000, maxStalenessMs: 900_000 },
      'acme-entra': { refreshMs: 60_000, maxStalenessMs: 900_000 },
    });
  });
});
