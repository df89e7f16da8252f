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
import { applyQuery } from '../fixture/fixture-source.js';
import {
  bearerAuthorization,
  headerValue,
  isProviderError,
  nextUrlPaging,
  ProviderError,
  ProviderHttp,
  providerPages,
  ReadBudget,
} from '../kernel/index.js';
import type { ProviderSettings } from '../kernel/index.js';
import { ClientCredentialsBroker, tokenForRead } from '../oauth/index.js';
import type { BrokerToken } from '../oauth/index.js';
import type { SourceSpec } from '../registry/types.js';
import { firstGraphPage, graphRequestFor } from './graph-query.js';
import type { EntraSourceOptions } from './options.js';
import { graphUserMapper } from './user-record.js';

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
  const nextLink = nextUrlPaging('@odata.nextLink', options.graphUrl.origin);

  async function* read(query: SourceQuery, readOptions: ReadOptions): AsyncGenerator<RawRecord[]> {
    const budget = new ReadBudget(readOptions);
    const http = new ProviderHttp(source, budget, settings);
    const token = await tokenForRead(broker, budget);
    // An app-only Graph token names its tenant in `tid`; a token of any other tenant reads another directory.
    if (token.claims?.['tid'] !== options.tenantId)
      throw new ProviderError('source_identity_mismatch', 'identity_mismatch');
    const request = graphRequestFor(query);
    const limit = query.operation === 'search_people' ? query.limit : undefined;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: bearerAuthorization(token.accessToken),
      ...(request.advanced ? { consistencylevel: 'eventual' } : {}),
    };
    const mapper = (observedAt: string) => graphUserMapper(source, observedAt);
    const pages = providerPages<URL>({
      source,
      first: firstGraphPage(options.graphUrl, request, Math.min(options.pageSize, limit ?? Infinity)),
      settings,
      ...(limit === undefined ? {} : { limit }),
      toRecord: (entry) => mapper((entry as Observed).observedAt)((entry as Observed).item),
      fetchPage: async (url, signal) => {
        const page = await refusedTokenForgotten(broker, token, http.getJson(url, headers, signal));
        const value = (page.json as { value?: unknown } | null)?.value;
        if (!Array.isArray(value))
          throw new ProviderError('source_unavailable', 'invalid_response', page.status);
        const observedAt = observedAtOf(headerValue(page.headers, 'date'));
        const items: Observed[] = (value as unknown[]).map((item) => ({ item, observedAt }));
        return { items, next: nextLink(page, items.length) };
      },
    });
    for await (const page of pages) {
      // Graph keeps no modification time on users: `updated_since` is answered against observed_at here.
      const kept = query.operation === 'list_people' ? applyQuery(page, query) : page;
      if (kept.length > 0) yield kept;
    }
  }

  return { source, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), read };
}

/** A 401 means the cached token was revoked or expired early: the next read asks for a new one. */
async function refusedTokenForgotten<T>(
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

function observedAtOf(date: string | undefined): string {
  const at = date === undefined ? Number.NaN : Date.parse(date);
  return new Date(Number.isNaN(at) ? Date.now() : at).toISOString();
}
