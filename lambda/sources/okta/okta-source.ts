/**
 * The `okta` adapter: Okta users through `GET /api/v1/users` with an access token from the source's
 * client-credentials broker (an OAuth service app; `okta.users.read` needs `private_key_jwt`), with the
 * parameters of search.ts (never `q`; a `filter` that keeps DEPROVISIONED users for reads of everyone).
 * Pages of up to 200 follow `Link: <…>; rel="next"` on the org's origin; a `429` is waited out until
 * `X-Rate-Limit-Reset` (measured against `Date`, plus one second) while that fits the budget.
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
  isProviderError,
  linkPaging,
  ProviderError,
  ProviderHttp,
  providerPages,
  ReadBudget,
} from '../kernel/index.js';
import type { ProviderSettings } from '../kernel/index.js';
import { ClientCredentialsBroker, tokenForRead } from '../oauth/index.js';
import type { SourceSpec } from '../registry/types.js';
import type { OktaSourceOptions } from './options.js';
import { oktaParamsFor } from './search.js';
import { oktaUserMapper } from './user-record.js';

/** An Okta adapter for one validated definition; its broker (and token cache) lives as long as it does. */
export function createOktaSource(
  spec: SourceSpec,
  options: OktaSourceOptions,
  settings: ProviderSettings = {},
): SourceAdapter {
  const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
  const broker = new ClientCredentialsBroker(options.oauth, spec.credential, {
    allowLoopbackHttp: settings.allowLoopbackHttp ?? false,
  });
  const org = options.orgUrl.origin;
  const next = linkPaging(org);

  async function* read(query: SourceQuery, readOptions: ReadOptions): AsyncGenerator<RawRecord[]> {
    const budget = new ReadBudget(readOptions);
    const http = new ProviderHttp(source, budget, settings);
    const token = await tokenForRead(broker, budget);
    const headers = { accept: 'application/json', authorization: bearerAuthorization(token.accessToken) };
    const limit = query.operation === 'search_people' ? query.limit : undefined;
    const first = new URL('/api/v1/users', org);
    for (const [name, value] of Object.entries(oktaParamsFor(query))) first.searchParams.set(name, value);
    first.searchParams.set('limit', String(Math.min(options.pageSize, limit ?? Infinity)));
    yield* providerPages<URL>({
      source,
      first,
      settings,
      ...(limit === undefined ? {} : { limit }),
      toRecord: oktaUserMapper(source, org, new Date().toISOString()),
      fetchPage: async (url, signal) => {
        let page;
        try {
          page = await http.getJson(url, headers, signal);
        } catch (error) {
          // A refused token may have been revoked early: the next read asks for a new one.
          if (isProviderError(error) && error.status === 401) broker.invalidate(token);
          throw error;
        }
        // Okta lists users as a bare JSON array; anything else cannot be read, and the source fails rather
        // than ending complete with the users of this and later pages missing.
        if (!Array.isArray(page.json))
          throw new ProviderError('source_unavailable', 'invalid_response', page.status);
        const items = page.json as unknown[];
        // An empty page may still link on (Okta's SDK tests read on past one): only a missing rel="next" ends.
        return { items, next: next(page, items.length) };
      },
    });
  }

  return { source, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), read };
}
