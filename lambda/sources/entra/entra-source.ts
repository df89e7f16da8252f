/**
 * The `entra` adapter: Microsoft Entra ID users through Graph `GET /v1.0/users`, with an app-only token
 * from the source's client-credentials broker. The token must be for the configured tenant (its `tid`),
 * else the source ends `source_identity_mismatch` before any request to Graph. Pages of up to 999 users
 * follow `@odata.nextLink` on Graph's origin until it is absent; the engine delivers them 100 at a time.
 */
import type {
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceQuery,
  SourceRef,
} from '../../federation/index.js';
import {
  bearerAuthorization,
  headerValue,
  isProviderError,
  ProviderError,
  ProviderHttp,
  providerPages,
  ReadBudget,
  sameOriginNext,
} from '../kernel/index.js';
import type { ProviderSettings } from '../kernel/index.js';
import { ClientCredentialsBroker, tokenForRead } from '../oauth/index.js';
import type { BrokerToken } from '../oauth/index.js';
import type { SourceSpec } from '../registry/types.js';
import { readGraphPage } from './graph-page.js';
import { firstGraphPage, graphRequestFor } from './graph-query.js';
import type { EntraSourceOptions } from './options.js';
import { graphUserMapper, observedAtOf } from './user-record.js';

interface Observed {
  readonly item: unknown;
  readonly observedAt: string;
}

/** An Entra adapter for one validated definition; its broker (and token cache) lives as long as it does. */
export function createEntraSource(
  spec: SourceSpec,
  options: EntraSourceOptions,
  settings: ProviderSettings = {},
): SourceAdapter {
  const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
  const broker = new ClientCredentialsBroker(options.oauth, spec.credential, {
    allowLoopbackHttp: settings.allowLoopbackHttp ?? false,
  });
  const origin = options.graphUrl.origin;
  // Set once Graph refuses this source's advanced query with a 400 (an Azure AD B2C tenant offers none):
  // from then on, for the life of the warm function, such a search lists every user and matches here.
  let advancedRefused = false;

  async function* read(query: SourceQuery, readOptions: ReadOptions): AsyncGenerator<RawRecord[]> {
    const budget = new ReadBudget(readOptions);
    const http = new ProviderHttp(source, budget, settings);
    const token = await tokenForRead(broker, budget);
    // An app-only Graph token names its tenant in `tid`; a token of any other tenant reads another directory.
    if (token.claims?.['tid'] !== options.tenantId)
      throw new ProviderError('source_identity_mismatch', 'identity_mismatch');
    const planned = graphRequestFor(query);
    const local = planned.advanced && advancedRefused ? planned.local : undefined;
    const request = local === undefined ? planned : { filter: undefined, advanced: false };
    const limit = query.operation === 'search_people' ? query.limit : undefined;
    // Sent on every page: Graph does not carry ConsistencyLevel into its next links (concepts/paging.md),
    // and an advanced query's next page without it is refused (400 Request_UnsupportedQuery).
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: bearerAuthorization(token.accessToken),
      ...(request.advanced ? { consistencylevel: 'eventual' } : {}),
    };
    const mapper = (observedAt: string) => graphUserMapper(source, observedAt);
    const pages = providerPages<URL>({
      source,
      first: firstGraphPage(
        options.graphUrl,
        request,
        local === undefined ? Math.min(options.pageSize, limit ?? Infinity) : options.pageSize,
      ),
      settings,
      ...(limit === undefined || local !== undefined ? {} : { limit }),
      toRecord: (entry) => mapper((entry as Observed).observedAt)((entry as Observed).item),
      fetchPage: async (url, signal) => {
        const page = await refusedTokenForgotten(broker, token, http.getJson(url, headers, signal));
        const { value, nextLink } = readGraphPage(page.json, page.status);
        const observedAt = observedAtOf(headerValue(page.headers, 'date'));
        const items: Observed[] = value.map((item) => ({ item, observedAt }));
        // A page may hold no users and still link on (concepts/paging.md): only a missing link ends the read.
        return { items, next: nextLink === undefined ? undefined : sameOriginNext(nextLink, url, origin) };
      },
    });
    const since = updatedSince(query);
    let delivered = 0;
    try {
      for await (const page of pages) {
        // Graph keeps no modification time on users: `updated_since` is answered against observed_at here.
        let kept = since === undefined ? page : page.filter((r) => Date.parse(r.observed_at) >= since);
        if (local !== undefined) kept = kept.filter(local).slice(0, (limit ?? Infinity) - delivered);
        delivered += kept.length;
        if (kept.length > 0) yield kept;
        if (delivered >= (limit ?? Infinity)) return;
      }
    } catch (error) {
      // Graph refused the advanced query itself (its 400 is logged by the kernel): read again, matching here.
      const refused = isProviderError(error) && error.status === 400 && planned.advanced;
      if (!refused || local !== undefined || delivered > 0) throw error;
      advancedRefused = true;
      yield* read(query, readOptions);
    }
  }

  return { source, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), read };
}

/** A 401 means the cached token was revoked or expired early: the next read asks for a new one. */
export async function refusedTokenForgotten<T>(
  broker: ClientCredentialsBroker,
  token: BrokerToken,
  request: Promise<T>,
): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (isProviderError(error) && error.status === 401) broker.invalidate(token);
    throw error;
  }
}

/** `list_people`'s `updated_since` as epoch ms, when it names a time. */
function updatedSince(query: SourceQuery): number | undefined {
  if (query.operation !== 'list_people' || query.updated_since === undefined) return undefined;
  const since = Date.parse(query.updated_since);
  return Number.isNaN(since) ? undefined : since;
}
