/**
 * The `scim` adapter: reads `/Users` of a SCIM 2.0 server through the provider kernel. The server's
 * `/ServiceProviderConfig` is read once per adapter (so once per warm function and source; a failed read
 * is not cached) to choose filtering, index or cursor paging and the page size.
 */
import type {
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceQuery,
  SourceRef,
} from '../../federation/index.js';
import { applyQuery } from '../fixture/fixture-source.js';
import {
  basicAuthorization,
  bearerAuthorization,
  cursorPaging,
  indexPaging,
  ProviderHttp,
  providerPages,
  ReadBudget,
  resolveCredential,
} from '../kernel/index.js';
import type { NextPageUrl, ProviderSettings } from '../kernel/index.js';
import type { SourceSpec } from '../registry/types.js';
import { scimFilterFor } from './filters.js';
import type { ScimSourceOptions } from './options.js';
import { parseServiceProviderConfig } from './service-provider-config.js';
import type { ScimCapabilities } from './service-provider-config.js';
import { scimUserMapper } from './user-record.js';

const ACCEPT = 'application/scim+json, application/json;q=0.9';

/** A SCIM adapter for one validated definition. */
export function createScimSource(
  spec: SourceSpec,
  options: ScimSourceOptions,
  settings: ProviderSettings = {},
): SourceAdapter {
  const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
  const base = options.baseUrl.href.replace(/\/+$/, '');
  let capabilities: Promise<ScimCapabilities> | undefined;

  const capabilitiesFor = (
    http: ProviderHttp,
    headers: Record<string, string>,
  ): Promise<ScimCapabilities> => {
    capabilities ??= http.getJson(new URL(`${base}/ServiceProviderConfig`), headers).then(
      (page) => parseServiceProviderConfig(page.json),
      (error: unknown) => {
        capabilities = undefined; // a failure is this read's, not the next one's
        throw error;
      },
    );
    return capabilities;
  };

  async function* read(query: SourceQuery, readOptions: ReadOptions): AsyncGenerator<RawRecord[]> {
    const http = new ProviderHttp(source, new ReadBudget(readOptions), settings);
    const secret = await resolveCredential(spec.credential);
    const headers = {
      accept: ACCEPT,
      authorization: options.auth === 'basic' ? basicAuthorization(secret) : bearerAuthorization(secret),
    };
    const caps = await capabilitiesFor(http, headers);
    const wanted = scimFilterFor(query);
    const filter = caps.filter ? wanted : undefined;
    // Without server-side filtering the query is applied here (as the fixtures apply it), after paging.
    const filterHere = wanted !== undefined && filter === undefined;
    const asked = query.operation === 'search_people' ? query.limit : undefined;
    const limit = filterHere ? undefined : asked;
    const count = Math.min(options.pageSize, caps.maxResults ?? Infinity, limit ?? Infinity);
    const first = new URL(`${base}/Users`);
    if (filter !== undefined) first.searchParams.set('filter', filter);
    if (caps.paging === 'cursor') first.searchParams.set('cursor', '');
    else first.searchParams.set('startIndex', '1');
    first.searchParams.set('count', String(count));
    const next: NextPageUrl = caps.paging === 'cursor' ? cursorPaging() : indexPaging({});
    const pages = providerPages<URL>({
      source,
      first,
      settings,
      ...(limit === undefined ? {} : { limit }),
      toRecord: scimUserMapper(source, options.locationHost, new Date().toISOString(), options.baseUrl),
      fetchPage: async (url, signal) => {
        const page = await http.getJson(url, headers, signal);
        const resources = (page.json as { Resources?: unknown } | null)?.Resources;
        const items = Array.isArray(resources) ? (resources as unknown[]) : [];
        return { items, next: next(page, items.length) };
      },
    });
    for await (const page of pages) {
      // The engine enforces a search limit across pages; applyQuery's per-page cut is only an early trim.
      const kept = filterHere ? applyQuery(page, query) : page;
      if (kept.length > 0) yield kept;
    }
  }

  return {
    source,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    read,
  };
}
