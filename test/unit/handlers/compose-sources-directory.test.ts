/**
 * Sources built from the directory's source definitions (`compose-sources.ts`): the embedded demo
 * document at cold start, a table's items through the catalog, and the local fixture knobs on top.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../lambda/aws/index.js';
import {
  createMemoryDirectoryItems,
  DEMO_DIRECTORY_DOCUMENT,
  documentToItems,
} from '../../../lambda/bos/index.js';
import type {
  CredentialResolver,
  DirectoryItemsReader,
  SourceDefinition,
} from '../../../lambda/bos/index.js';
import { runFederation } from '../../../lambda/federation/index.js';
import type { FederationEvent, SourceAdapter } from '../../../lambda/federation/index.js';
import type { Logger } from '../../../lambda/mcp/index.js';
import { composeSources } from '../../../lambda/handlers/compose-sources.js';
import { startReplayHttpServer } from '../../../local/providers/replay/http-server.js';

const LOCAL = loadConfig({});

interface LogLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      void lines.push({ level, message, fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A resolver that records every name it is asked for. */
function recordingResolver(values: Record<string, string>): CredentialResolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    resolve(name) {
      calls.push(name);
      const value = values[name];
      return value === undefined ? Promise.reject(new Error(`no ${name}`)) : Promise.resolve(value);
    },
  };
}

/** Directory items holding exactly these source definitions. */
function itemsOf(sources: SourceDefinition[]): DirectoryItemsReader & { queries: number } {
  const reader = createMemoryDirectoryItems(
    documentToItems({ format: 'bos-directory/v1', principals: [], contexts: [], sources }),
  );
  const counted = {
    queries: 0,
    query: (pk: string, prefix: string) => {
      counted.queries += 1;
      return reader.query(pk, prefix);
    },
    get: (pk: string, sk: string) => reader.get(pk, sk),
  };
  return counted;
}

async function terminals(sources: Iterable<SourceAdapter>): Promise<Record<string, string>> {
  const events: FederationEvent[] = [];
  await runFederation({
    sources: [...sources],
    query: { operation: 'list_people' },
    deadline: Date.now() + 5000,
    sourceTimeoutMs: 200,
    onEvent: (e) => void events.push(e),
  });
  return Object.fromEntries(
    events
      .filter((e) => e.type !== 'page')
      .map((e) => [e.source.source_identity, e.type === 'error' ? e.code : e.type]),
  );
}

const FAST = { BOS_FIXTURE_LATENCY_SCALE: '0' };

describe('sources from the embedded directory document', () => {
  it('builds one adapter per definition of the demo document, typed by its options', () => {
    const { sources } = composeSources(LOCAL, FAST, recordingLogger());
    assert.deepEqual(
      [...sources.values()].map((a) => [a.source.source_identity, a.source.source_type]),
      DEMO_DIRECTORY_DOCUMENT.sources.map((d) => [d.source_id, d.options['source_type']]),
    );
  });

  it('resolves the acme-crm credential only when acme-crm is read', async () => {
    // Prepare
    const resolver = recordingResolver({ ACME_CRM_TOKEN: 'value-1' });
    const { sources } = composeSources(LOCAL, FAST, recordingLogger(), { resolver });
    assert.deepEqual(resolver.calls, [], 'composition resolves nothing');
    // Act
    const hr = await terminals([sources.get('acme-hr')!]);
    const crm = await terminals([sources.get('acme-crm')!]);
    // Assess
    assert.deepEqual(hr, { 'acme-hr': 'complete' });
    assert.deepEqual(crm, { 'acme-crm': 'complete' });
    assert.deepEqual(resolver.calls, ['ACME_CRM_TOKEN']);
  });

  it('reads BOS_SECRET_<NAME> locally, and fails the source, logged by reference, when it is missing', async () => {
    // Prepare
    const withSecret = composeSources(LOCAL, { ...FAST, BOS_SECRET_ACME_CRM_TOKEN: 'v' }, recordingLogger());
    const logger = recordingLogger();
    const without = composeSources(LOCAL, FAST, logger);
    // Act + Assess
    assert.deepEqual(await terminals([withSecret.sources.get('acme-crm')!]), { 'acme-crm': 'complete' });
    assert.deepEqual(await terminals([without.sources.get('acme-crm')!]), {
      'acme-crm': 'provider_authorization_required',
    });
    const line = logger.lines.find((l) => l.message === 'bos.sources.credential_unavailable');
    assert.deepEqual(line?.fields, {
      source_id: 'acme-crm',
      credential_ref: 'ACME_CRM_TOKEN',
      errorName: 'CredentialError',
      errorCode: 'unknown_credential',
    });
  });

  it('refuses at cold start a definition of an unknown kind or with bad options, listing each by source', () => {
    const definitions: SourceDefinition[] = [
      { source_id: 'acme-hr', adapter: 'fixture', options: { source_type: 'hr', record_count: 1 } },
      { source_id: 'acme-soap', adapter: 'soap', options: {} },
      { source_id: 'acme-bad', adapter: 'fixture', options: { source_type: 'hr', record_count: 'many' } },
    ];
    assert.throws(
      () => composeSources(LOCAL, {}, recordingLogger(), { definitions }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 2 &&
        error.problems[0] ===
          'source acme-soap: adapter "soap" is not known (known: fixture, scim, ldap, entra, okta, http-json)' &&
        error.problems[1] === 'source acme-bad: options.record_count must be an integer from 0 to 100000',
    );
  });
});

describe('a SCIM source that cannot filter', () => {
  it('logs its degradation once, with no provider text, and counts every read matched here', async () => {
    // Prepare: a server that answers every filter with 501 and lists two users
    const server = await startReplayHttpServer(({ url }) =>
      Promise.resolve(
        url.searchParams.has('filter')
          ? { status: 501, body: { detail: 'provider-says-no-7c1' } }
          : {
              status: 200,
              headers: { 'content-type': 'application/scim+json' },
              body: {
                totalResults: 2,
                Resources: [
                  { id: '1', displayName: 'Ada Lovelace' },
                  { id: '2', displayName: 'Alan Turing' },
                ],
              },
            },
      ),
    );
    const definitions: SourceDefinition[] = [
      {
        source_id: 'acme-scim',
        adapter: 'scim',
        credential_ref: 'ACME_SCIM_TOKEN',
        options: { base_url: `${server.origin}/scim/v2` },
      },
    ];
    const logger = recordingLogger();
    const localMatches: string[] = [];
    const { sources } = composeSources(LOCAL, {}, logger, {
      definitions,
      resolver: recordingResolver({ ACME_SCIM_TOKEN: 'token-1' }),
      onLocalMatch: (id) => localMatches.push(id),
    });
    // Act
    const found: string[] = [];
    for (let read = 0; read < 2; read++) {
      const result = await runFederation({
        sources: [sources.get('acme-scim')!],
        query: { operation: 'search_people', query: 'turing' },
        deadline: Date.now() + 5000,
      });
      found.push(...result.records.map((r) => r.display_name ?? ''));
    }
    await server.close();
    // Assess
    assert.deepEqual(found, ['Alan Turing', 'Alan Turing']);
    const degraded = logger.lines.filter((l) => l.message === 'bos.sources.provider_filter_degraded');
    assert.deepEqual(degraded, [
      {
        level: 'info',
        message: 'bos.sources.provider_filter_degraded',
        fields: {
          source_type: 'scim',
          source_identity: 'acme-scim',
          reason: 'filter_refused',
          status: 501,
          filter: 'local',
        },
      },
    ]);
    assert.deepEqual(localMatches, ['acme-scim', 'acme-scim']);
    assert.ok(!JSON.stringify(logger.lines).includes('provider-says-no'));
  });
});

describe('sources from a directory table', () => {
  const distinct: SourceDefinition = {
    source_id: 'globex-payroll',
    adapter: 'fixture',
    options: { source_type: 'payroll', record_count: 7 },
  };

  it('loads the table definitions on the first refresh, not at composition', async () => {
    // Prepare
    const items = itemsOf([distinct]);
    const composed = composeSources(LOCAL, FAST, recordingLogger(), { items });
    assert.equal(items.queries, 0);
    // Act
    await composed.refresh();
    await composed.refresh();
    // Assess
    assert.equal(items.queries, 1, 'cached for the TTL');
    assert.deepEqual([...composed.sources.keys()], ['globex-payroll']);
    assert.deepEqual(composed.sources.get('globex-payroll')?.source, {
      source_type: 'payroll',
      source_identity: 'globex-payroll',
    });
  });

  it('fails only a bad definition with source_unavailable and logs its source id', async () => {
    // Prepare
    const logger = recordingLogger();
    const composed = composeSources(LOCAL, FAST, logger, {
      items: itemsOf([
        distinct,
        { source_id: 'globex-crm', adapter: 'fixture', options: { source_type: 'crm', record_count: -3 } },
        { source_id: 'globex-soap', adapter: 'soap', options: {} },
      ]),
    });
    // Act
    await composed.refresh();
    // Assess
    assert.deepEqual(await terminals(composed.sources.values()), {
      'globex-payroll': 'complete',
      'globex-crm': 'source_unavailable',
      'globex-soap': 'source_unavailable',
    });
    const invalid = logger.lines.filter((l) => l.message === 'bos.sources.invalid_definition');
    assert.deepEqual(
      invalid.map((l) => [l.level, l.fields['source_id'], l.fields['problems']]),
      [
        ['error', 'globex-crm', ['options.record_count must be an integer from 0 to 100000']],
        [
          'error',
          'globex-soap',
          ['adapter "soap" is not known (known: fixture, scim, ldap, entra, okta, http-json)'],
        ],
      ],
    );
  });

  it('logs a store failure and keeps answering', async () => {
    const logger = recordingLogger();
    const composed = composeSources(LOCAL, FAST, logger, {
      items: {
        query: () => Promise.reject(new Error('ECONNREFUSED')),
        get: () => Promise.resolve(undefined),
      },
    });
    await composed.refresh();
    assert.equal(composed.sources.size, 0);
    assert.equal(logger.lines.find((l) => l.level === 'error')?.message, 'bos.sources.load_failed');
  });

  it('traces directory-built adapters when BOS_FIXTURE_TRACE=1', async () => {
    const logger = recordingLogger();
    const composed = composeSources(LOCAL, { ...FAST, BOS_FIXTURE_TRACE: '1' }, logger, {
      items: itemsOf([distinct]),
    });
    await composed.refresh();
    await terminals(composed.sources.values());
    const traced = logger.lines.filter((l) => l.message.startsWith('bos.fixture.'));
    assert.ok(
      traced.some(
        (l) => l.message === 'bos.fixture.read' && l.fields['source_identity'] === 'globex-payroll',
      ),
    );
  });

  it('lets a scenario preset replace the directory sources without reading the table', async () => {
    const items = itemsOf([distinct]);
    const composed = composeSources(LOCAL, { BOS_FIXTURE_PRESET: 'synthetic' }, recordingLogger(), { items });
    await composed.refresh();
    assert.equal(items.queries, 0);
    assert.deepEqual(
      [...composed.sources.keys()],
      ['acme-hr', 'acme-crm', 'acme-directory', 'acme-archive', 'acme-legacy'],
    );
  });

  it('uses the table definitions on a real deployment too, ignoring the knobs', async () => {
    // Prepare
    const deployed = loadConfig({
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      MCP_SESSION_TABLE: 'sessions',
      MCP_ENDPOINT: 'https://api.example.test/mcp/apps/bos/platform',
      AUTH_ISSUER: 'https://issuer.example.test',
      AUTH_AUDIENCE: 'https://api.example.test/mcp/apps/bos/platform',
      AUTH_JWKS_URL: 'https://issuer.example.test/jwks.json',
    });
    const logger = recordingLogger();
    const composed = composeSources(deployed, { BOS_FIXTURE_PRESET: 'synthetic' }, logger, {
      items: itemsOf([distinct]),
    });
    // Act
    await composed.refresh();
    // Assess
    assert.deepEqual([...composed.sources.keys()], ['globex-payroll']);
    assert.deepEqual(
      logger.lines.map((l) => l.message),
      ['bos.fixture.knobs_ignored'],
    );
  });
});
