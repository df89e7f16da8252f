/**
 * The `scim` adapter: reads `/Users` of a SCIM 2.0 server through the provider kernel. The server's
 * `/ServiceProviderConfig` is read once per adapter (so once per warm function and source; a failed read
 * is not cached) as a hint for filtering, index or cursor paging and the page size; without one (404,
 * 401, 403, an unreadable body) the RFC defaults apply. Filters the server refuses degrade step by step
 * (`filter-plan.ts`) down to a listing matched here by the kernel's local matching.
 */
import type {
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceQuery,
  SourceRef,
} from '../../federation/index.js';
import {
  basicAuthorization,
  bearerAuthorization,
  isProviderError,
  ProviderError,
  ProviderHttp,
  providerPages,
  ReadBudget,
  resolveCredential,
} from '../kernel/index.js';
import type { ProviderSettings } from '../kernel/index.js';
import type { SourceSpec } from '../registry/types.js';
import { afterRefusal, firstNote, firstStep } from './filter-plan.js';
import type { FilterStep } from './filter-plan.js';
import { openListing } from './listing.js';
import type { Listing } from './listing.js';
import type { ScimSourceOptions } from './options.js';
import { scimBody } from './scim-json.js';
import { DEFAULT_CAPABILITIES, parseServiceProviderConfig } from './service-provider-config.js';
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
  const log = settings.log;
  let capabilities: Promise<ScimCapabilities> | undefined;

  const readCapabilities = async (http: ProviderHttp, headers: Record<string, string>) => {
    // RFC 7644 §4 makes the document a SHOULD; a server without it (or hiding it) still serves /Users.
    const result = await http.send(new URL(`${base}/ServiceProviderConfig`), headers, {
      passStatus: [401, 403, 404],
    });
    if (result.status === 401 || result.status === 403) {
      capabilities = undefined; // perhaps a credential being fixed: asked again on the next read
      return DEFAULT_CAPABILITIES;
    }
    if (result.status === 404) return DEFAULT_CAPABILITIES;
    try {
      return parseServiceProviderConfig(scimBody(result));
    } catch (error) {
      if (isProviderError(error)) return DEFAULT_CAPABILITIES;
      throw error;
    }
  };

  const capabilitiesFor = (http: ProviderHttp, headers: Record<string, string>) => {
    capabilities ??= readCapabilities(http, headers).catch((error: unknown) => {
      capabilities = undefined; // a failure is this read's, not the next one's
      throw error;
    });
    return capabilities;
  };

  /** Opens the step's listings (their first pages), degrading while the server refuses a filter. */
  async function open(
    http: ProviderHttp,
    query: SourceQuery,
    caps: ScimCapabilities,
    headers: Record<string, string>,
  ) {
    let step: FilterStep = firstStep(base, query, options.filter, caps.filter);
    if (step.matchHere && options.filter === 'auto' && !caps.filter && firstNote(base, 'unsupported'))
      log?.({ event: 'provider_filter_degraded', source, reason: 'filter_not_supported', filter: 'local' });
    const asked = query.operation === 'search_people' ? query.limit : undefined;
    for (;;) {
      // A search limit may shorten the pages asked for only when the server does the matching.
      const short = step.matchHere || step.filters.length > 1 ? undefined : asked;
      const count = Math.min(options.pageSize, caps.maxResults ?? Infinity, short ?? Infinity);
      const listings = await Promise.all(
        step.filters.map((filter) =>
          openListing({
            http,
            base,
            headers,
            filter,
            count,
            paging: caps.paging,
            query: step.matchHere ? query : undefined,
          }),
        ),
      );
      const refused = listings.find((l): l is Extract<Listing, { refused: number }> => 'refused' in l);
      if (refused === undefined)
        return { step, listings: listings as Exclude<Listing, { refused: number }>[] };
      const after = afterRefusal(base, query, options.filter, step);
      if (after === undefined)
        throw http.failed(new ProviderError('source_unavailable', 'http_status', refused.refused));
      if (after.changed)
        log?.({
          event: 'provider_filter_degraded',
          source,
          reason: 'filter_refused',
          status: refused.refused,
          filter: after.next.kind,
        });
      step = after.next;
    }
  }

  async function* read(query: SourceQuery, readOptions: ReadOptions): AsyncGenerator<RawRecord[]> {
    const http = new ProviderHttp(source, new ReadBudget(readOptions), settings);
    const secret = await resolveCredential(spec.credential);
    const headers = {
      accept: ACCEPT,
      authorization: options.auth === 'basic' ? basicAuthorization(secret) : bearerAuthorization(secret),
    };
    const caps = await capabilitiesFor(http, headers);
    const { step, listings } = await open(http, query, caps, headers);
    if (step.matchHere) log?.({ event: 'provider_local_match', source, filter: step.kind });
    const toRecord = scimUserMapper(source, options.locationHost, new Date().toISOString(), options.baseUrl);
    // Users of several listings (one `eq` per attribute) are united by id.
    const seen = listings.length > 1 ? new Set<string>() : undefined;
    for (const listing of listings) {
      const pages = providerPages({
        source,
        first: listing.first,
        settings,
        ...(query.operation === 'search_people' && query.limit !== undefined ? { limit: query.limit } : {}),
        toRecord,
        fetchPage: listing.fetchPage,
      });
      for await (const page of pages) {
        const kept =
          seen === undefined ? page : page.filter((r) => !seen.has(r.external_id) && seen.add(r.external_id));
        if (kept.length > 0) yield kept;
      }
    }
  }

  return {
    source,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    read,
  };
}
