/**
 * "Source credentials referenced by name ... resolved only inside the adapter, never echoed in
 * outputs, errors or logs." The whole platform in process (real runtime, engine, directory over items,
 * sources from `composeSources`) with `BOS_SECRET_ACME_CRM_TOKEN` set to a marker: reads that resolve it,
 * and reads whose resolution fails, must leave the marker out of every response byte and log line.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../lambda/aws/index.js';
import {
  createBosPlatform,
  createItemsDirectory,
  createJwtVerifier,
  createMemoryDirectoryItems,
  DEMO_DIRECTORY_DOCUMENT,
  documentToItems,
} from '../../../lambda/bos/index.js';
import type { CredentialResolver, DirectoryDocument } from '../../../lambda/bos/index.js';
import type { Logger } from '../../../lambda/mcp/index.js';
import { composeSources } from '../../../lambda/handlers/compose-sources.js';
import type { SourceCompositionOptions } from '../../../lambda/handlers/compose-sources.js';
import { createDevAuth } from '../../../local/dev-auth/index.js';

const ENDPOINT = 'https://bos.example.test/mcp/apps/bos/platform';
const ISSUER = 'https://issuer.example.test';
const HANDLE = `ctx_${randomBytes(16).toString('hex')}`;
const OPT_IN = {
  'io.modelcontextprotocol/clientCapabilities': { experimental: { 'bos/source-results/v1': {} } },
};

const demo = (id: string) => DEMO_DIRECTORY_DOCUMENT.sources.find((s) => s.source_id === id)!;

/** hr (no credential), crm (ACME_CRM_TOKEN, configured) and vault (VAULT_TOKEN, never configured). */
const DOCUMENT: DirectoryDocument = {
  format: 'bos-directory/v1',
  principals: [{ subject: 'dev-user', grants: [HANDLE] }],
  contexts: [
    {
      context_handle: HANDLE,
      organization_name: 'Acme Corp',
      application_name: 'Secrets',
      installation_name: 'Test',
      role_label: 'Analyst',
      is_default: true,
      operations: ['search_people', 'get_person', 'list_people'],
      source_ids: ['acme-hr', 'acme-crm', 'acme-vault'],
    },
  ],
  sources: [
    demo('acme-hr'),
    demo('acme-crm'),
    {
      source_id: 'acme-vault',
      adapter: 'fixture',
      options: { source_type: 'vault', record_count: 5, requires_credential: true },
      credential_ref: 'VAULT_TOKEN',
    },
  ],
};

interface Run {
  bodies: string[];
  logs: string[];
}

/** Every log line as the JSON logger would write it. */
function capturingLogger(logs: string[]): Logger {
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void logs.push(JSON.stringify({ level, message, ...fields }));
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Runs bos_execute (JSON and streamed) and a direct tool through the platform; returns what came out. */
async function run(env: Record<string, string>, options: SourceCompositionOptions = {}): Promise<Run> {
  const logs: string[] = [];
  const bodies: string[] = [];
  const logger = capturingLogger(logs);
  const items = createMemoryDirectoryItems(documentToItems(DOCUMENT));
  const sources = composeSources(loadConfig({}), { BOS_FIXTURE_LATENCY_SCALE: '0', ...env }, logger, {
    ...options,
    items,
  });
  const auth = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT });
  const platform = createBosPlatform({
    directory: createItemsDirectory({ reader: items }),
    sources: sources.sources,
    verifier: createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks }),
    endpoint: ENDPOINT,
    logger,
    serverOptions: { name: 'bos-test', version: '0.0.0', logger },
  });
  let sessionId = '';
  const post = async (body: unknown): Promise<Response> => {
    await sources.refresh();
    return platform.handle(
      new Request(ENDPOINT, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${auth.tokens['dev-user']}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(sessionId && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
        },
        body: JSON.stringify(body),
      }),
    );
  };
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  sessionId = init.headers.get('mcp-session-id') ?? '';
  bodies.push(await init.text());
  bodies.push(await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text());
  const execute = { context_handle: HANDLE, tool_name: 'list_people', arguments: {} };
  const calls = [
    { name: 'bos_execute', arguments: execute },
    { name: 'bos_execute', arguments: execute, _meta: OPT_IN },
    { name: 'search_people', arguments: { query: 'a' }, _meta: OPT_IN },
  ];
  for (const [i, params] of calls.entries())
    bodies.push(await (await post({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params })).text());
  await platform.server.settled();
  return { bodies, logs };
}

interface Metadata {
  provenance: { source_identity: string }[];
  source_errors: { source: { source_identity: string }; error: { code: string } }[];
}

/** The metadata of the JSON bos_execute result (the third body). */
function metadataOf(result: Run): Metadata {
  const message = JSON.parse(result.bodies[2] ?? '{}') as {
    result: { structuredContent: { result: { metadata: Metadata } } };
  };
  return message.result.structuredContent.result.metadata;
}

/** Source id → error code, from the JSON bos_execute result. */
function sourceErrors(result: Run): Record<string, string> {
  return Object.fromEntries(
    metadataOf(result).source_errors.map((e) => [e.source.source_identity, e.error.code]),
  );
}

function assertNowhere(marker: string, result: Run): void {
  for (const body of result.bodies) assert.ok(!body.includes(marker), 'a response carries the secret');
  for (const line of result.logs)
    assert.ok(!line.includes(marker), `a log line carries the secret: ${line.slice(0, 120)}`);
}

describe('source credentials never leave the adapter', () => {
  it('resolves BOS_SECRET_ACME_CRM_TOKEN for acme-crm and never shows it, while VAULT_TOKEN fails', async () => {
    // Prepare
    const marker = `MARKER-${randomBytes(12).toString('hex')}`;
    // Act
    const result = await run({ BOS_SECRET_ACME_CRM_TOKEN: marker });
    // Assess: crm read with its credential (its records are in the result), vault refused, marker nowhere.
    assert.deepEqual(sourceErrors(result), { 'acme-vault': 'provider_authorization_required' });
    assert.ok(metadataOf(result).provenance.some((p) => p.source_identity === 'acme-crm'));
    assert.ok(result.logs.some((l) => l.includes('"credential_ref":"VAULT_TOKEN"')));
    assertNowhere(marker, result);
  });

  it('keeps a secret out even when a resolver puts it into its own error message', async () => {
    // Prepare: a badly behaved resolver, the worst case for the adapter's error handling.
    const marker = `MARKER-${randomBytes(12).toString('hex')}`;
    const resolver: CredentialResolver = {
      resolve: (name) =>
        name === 'ACME_CRM_TOKEN'
          ? Promise.resolve(marker)
          : Promise.reject(new Error(`lookup of ${name} failed near ${marker}`)),
    };
    // Act
    const result = await run({}, { resolver });
    // Assess
    assert.deepEqual(sourceErrors(result), { 'acme-vault': 'provider_authorization_required' });
    assertNowhere(marker, result);
  });
});
