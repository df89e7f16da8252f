/**
 * (b) A large tenant: one context over 8 sources of 2,500 people each, served by the platform behind the same
 * REST v1 streaming entry the deployed handler uses (`createRestEntry`), with a real token verifier (the
 * local dev issuer's JWKS over HTTP) and the directory as a `bos-directory/v1` document in memory.
 *
 * Each source is an HTTP-JSON-like provider whose responses were rendered before the measurement: pages of
 * 200 records as JSON text. The adapter parses each response with `JSON.parse` when the engine asks for the
 * next page, as a real adapter parses its `fetch` response, so the call's CPU includes that parse (the
 * providers answer at once: the figures are the platform's work, not provider latency). The records are the
 * fixture generator's (`fixtureRecords`); 60 % of `bench-1`'s people share an email with `bench-0`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  createBosPlatform,
  createDocumentDirectory,
  createJwtVerifier,
  parseDirectoryDocument,
} from '../../lambda/bos/index.js';
import type { RawRecord, SourceAdapter } from '../../lambda/federation/index.js';
import { createRestEntry } from '../../lambda/handlers/compose-entry.js';
import { fixtureRecords } from '../../lambda/sources/index.js';
import type { FixtureSourceOptions } from '../../lambda/sources/index.js';
import { boundedKeySetFetch } from '../../lambda/handlers/key-set-fetch.js';
import { startDevIssuer } from '../../local/dev-auth/index.js';
import type { StreamingHandler } from './lambda-host.js';

/** The endpoint the tenant's tokens are minted for (never listened on: calls run in-process). */
const ENDPOINT = 'http://127.0.0.1:3999/mcp/apps/bos/platform';
const MCP_PATH = '/mcp/apps/bos/platform';

/** The tenant's only context. */
export const LARGE_CONTEXT_HANDLE = 'ctx_6c61726765746e616e7462656e636831';

/** Records per provider response. */
export const PROVIDER_PAGE_RECORDS = 200;

const RECORDS_PER_SOURCE = 2_500;

/** The 8 sources: alternating hr and crm systems; `bench-1` shares 60 % of its people's emails with `bench-0`. */
export const LARGE_SOURCES: readonly FixtureSourceOptions[] = Array.from({ length: 8 }, (_, i) => ({
  source_type: i % 2 === 0 ? 'hr' : 'crm',
  source_identity: `bench-${i}`,
  recordCount: RECORDS_PER_SOURCE,
  ...(i === 1
    ? {
        overlaps: [
          { with: 'bench-0', withRecordCount: RECORDS_PER_SOURCE, by: 'email' as const, share: 0.6 },
        ],
      }
    : {}),
}));

/** Every provider response of every source, as JSON text, in source order then page order. */
export function renderProviderResponses(): string[][] {
  return LARGE_SOURCES.map((options) => {
    const records = fixtureRecords(options);
    const pages: string[] = [];
    for (let at = 0; at < records.length; at += PROVIDER_PAGE_RECORDS) {
      const next = at + PROVIDER_PAGE_RECORDS < records.length ? String(pages.length + 2) : null;
      pages.push(JSON.stringify({ records: records.slice(at, at + PROVIDER_PAGE_RECORDS), next }));
    }
    return pages;
  });
}

/** An adapter over one provider's rendered responses: one parse per page, on its own event-loop turn. */
function jsonProvider(options: FixtureSourceOptions, responses: readonly string[]): SourceAdapter {
  return {
    source: { source_type: options.source_type, source_identity: options.source_identity },
    async *read(_query, { signal }) {
      for (const text of responses) {
        // A provider's answer arrives on an I/O turn of its own, as a fetch response does.
        await nextTurn();
        if (signal.aborted) return;
        const body = JSON.parse(text) as { records: RawRecord[] };
        yield body.records;
      }
    },
  };
}

/** The tenant's handler and a token of its only principal; `close()` stops the issuer. */
export interface LargeTenant {
  handler: StreamingHandler;
  token: string;
  close(): Promise<void>;
}

/** Starts the issuer and composes the tenant's platform over `responses` (from {@link renderProviderResponses}). */
export async function startLargeTenant(responses: readonly (readonly string[])[]): Promise<LargeTenant> {
  const issuer = await startDevIssuer({ audience: ENDPOINT });
  const document = parseDirectoryDocument({
    format: 'bos-directory/v1',
    principals: [{ subject: 'dev-user', grants: [LARGE_CONTEXT_HANDLE] }],
    contexts: [
      {
        context_handle: LARGE_CONTEXT_HANDLE,
        organization_name: 'Large Tenant',
        application_name: 'People',
        installation_name: 'Production',
        role_label: 'Reader',
        is_default: true,
        operations: ['search_people', 'get_person', 'list_people'],
        source_ids: LARGE_SOURCES.map((o) => o.source_identity),
      },
    ],
    sources: LARGE_SOURCES.map((o) => ({
      source_id: o.source_identity,
      adapter: 'http-json',
      options: { source_type: o.source_type },
    })),
  });
  const sources = new Map(
    LARGE_SOURCES.map((o, i) => [o.source_identity, jsonProvider(o, responses[i] ?? [])]),
  );
  const handler = createRestEntry({
    component: 'platform',
    serves: (path) => path === MCP_PATH,
    compose(logger) {
      const platform = createBosPlatform({
        directory: createDocumentDirectory(document),
        sources,
        verifier: createJwtVerifier({
          issuer: issuer.issuer,
          audience: issuer.audience,
          jwks: new URL(issuer.jwksUrl),
          fetchKeySet: boundedKeySetFetch(),
        }),
        endpoint: ENDPOINT,
        deadlineReserveMs: 1000,
        logger,
        // The final frame is 19 MB: over the default limit of one SSE event (MCP_STREAM_MAX_EVENT_BYTES,
        // 10 MiB), which a tenant this large raises (up to 200 MiB).
        serverOptions: {
          name: 'bos-platform',
          version: '0.1.0',
          logger,
          maxStreamEventBytes: 64 * 1024 * 1024,
        },
      });
      return {
        handle: (request, ctx) => platform.handle(request, ctx),
        origin: new URL(ENDPOINT).origin,
        settled: () => platform.server.settled(),
      };
    },
  }) as unknown as StreamingHandler;
  return { handler, token: issuer.tokens['dev-user'], close: () => issuer.close() };
}
