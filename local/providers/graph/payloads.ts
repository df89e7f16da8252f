/**
 * The answers the Graph replay gives, each shaped after a response Microsoft publishes in the source of its
 * Graph documentation, repository `microsoftgraph/microsoft-graph-docs-contrib` (cited per payload below as
 * path + example name). Only the shapes carry over: names, values and identifiers are ours.
 *
 * | answer                                   | public source                                                                                   |
 * | ---------------------------------------- | ----------------------------------------------------------------------------------------------- |
 * | user page (`@odata.context`, `value`)    | `api-reference/v1.0/api/user-list.md`, example `get_users_2` (Example 1)                        |
 * | `@odata.count` (advanced queries only)   | `api-reference/v1.0/api/user-list.md`, example `get_a_count_endsWith` (Example 5)               |
 * | `$count=true` ignored without the header | `concepts/aad-advanced-queries.md`, example `get_users_silent_fail`                             |
 * | `@odata.nextLink` with `$skiptoken`      | `concepts/paging.md` (the `users?$top=5&$skiptoken=…` link; count on the first page only)       |
 * | `400 Request_UnsupportedQuery`           | `concepts/aad-advanced-queries.md`, examples `get_users_missing_advancedqueryparams` and        |
 * |                                          | `get_applications_missing_advancedqueryparams` (`$search` without `ConsistencyLevel`)           |
 * | `429 TooManyRequests` + `Retry-After`    | `concepts/throttling.md`, "Sample response" (`Retry-After: 2.128`, `innerError.code/status`)     |
 * | `x-ms-throttle-scope/-information`       | `concepts/throttling.md`, "Identity and access service limits" → "Throttled responses requests" |
 * | `503 serviceNotAvailable`, `504`         | `concepts/errors.md`, status table and code table (the 504 body's code is ours: none is named)  |
 * | error body (`error.code/message/innerError`) | `concepts/errors.md`, example `example-error-response`                                      |
 * | delta page (`@odata.nextLink`/`@odata.deltaLink`) | `api-reference/v1.0/api/user-delta.md`, examples `user_delta`, `user_delta_select`     |
 * | `@removed` with `reason` `changed`/`deleted` | `concepts/delta-query-overview.md`, "Resource representation in the delta query response" |
 * | `410 syncStateNotFound` (expired link)   | `concepts/delta-query-overview.md` (`syncStateNotFound`; the status is this replay's choice)    |
 */
import { randomUUID } from 'node:crypto';
import type { ReplayAnswer } from '../replay/http-server.js';

/** Graph writes `innerError.date` without fractional seconds or zone (the examples above). */
const graphDate = (): string => new Date().toISOString().slice(0, 19);

/** An OData error answer (`concepts/errors.md`). */
export function graphError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): ReplayAnswer {
  const requestId = randomUUID();
  return {
    status,
    headers: { 'request-id': requestId, 'client-request-id': requestId, ...headers },
    body: {
      error: {
        code,
        message,
        innerError: { date: graphDate(), 'request-id': requestId, 'client-request-id': requestId },
      },
    },
  };
}

/** Why Graph refused a query that needs the advanced query parameters. */
export type UnsupportedQuery = 'operator' | 'search' | 'filter';

const UNSUPPORTED: Readonly<Record<UnsupportedQuery, string>> = {
  operator:
    "Operator 'endsWith' is not supported because the required parameters might be missing. Try adding $count=true query parameter and ConsistencyLevel:eventual header.",
  search:
    "Request with $search query parameter only works through MSGraph with a special request header: 'ConsistencyLevel: eventual'",
  filter: 'Unsupported or invalid query filter clause specified.',
};

/** `400 Request_UnsupportedQuery` (`concepts/aad-advanced-queries.md`, error handling examples). */
export const unsupportedQuery = (why: UnsupportedQuery): ReplayAnswer =>
  graphError(400, 'Request_UnsupportedQuery', UNSUPPORTED[why]);

/**
 * `429 Too Many Requests` as `concepts/throttling.md` shows it; `retryAfterS` undefined leaves `Retry-After`
 * out, which the same page documents for some identity limits ("do not return a Retry-After header").
 */
export function throttled(retryAfterS: number | undefined, tenantId: string, appId: string): ReplayAnswer {
  const requestId = randomUUID();
  return {
    status: 429,
    headers: {
      'request-id': requestId,
      ...(retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) }),
      'x-ms-throttle-scope': `Tenant_Application/Read/${appId}/${tenantId}`,
      'x-ms-throttle-information': 'ResourceUnitLimitExceeded',
    },
    body: {
      error: {
        code: 'TooManyRequests',
        innerError: {
          code: '429',
          date: graphDate(),
          message: 'Please retry after',
          'request-id': requestId,
          status: '429',
        },
        message: 'Please retry again later.',
      },
    },
  };
}

/** `503` (`serviceNotAvailable`, "There may be a Retry-After header") and `504` (`concepts/errors.md`). */
export const serviceUnavailable = (retryAfterS?: number): ReplayAnswer =>
  graphError(
    503,
    'serviceNotAvailable',
    'The service is not available. Try the request again after a delay.',
    {
      ...(retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) }),
    },
  );

export const gatewayTimeout = (): ReplayAnswer =>
  graphError(504, 'gatewayTimeout', 'The upstream server did not answer in time.');

/** One page of users (`get_users_2`), with `@odata.count` and `@odata.nextLink` when they apply. */
export function userPage(
  context: string,
  value: readonly unknown[],
  extras: { readonly count?: number; readonly nextLink?: string },
): ReplayAnswer {
  return {
    status: 200,
    headers: { 'request-id': randomUUID(), 'odata-version': '4.0' },
    body: {
      '@odata.context': context,
      ...(extras.count === undefined ? {} : { '@odata.count': extras.count }),
      ...(extras.nextLink === undefined ? {} : { '@odata.nextLink': extras.nextLink }),
      value,
    },
  };
}

/** A `200` whose list shape cannot be read (a proxy's or a broken release's answer): no `value` array. */
export const unreadablePage = (context: string): ReplayAnswer => ({
  status: 200,
  headers: { 'request-id': randomUUID() },
  body: { '@odata.context': context, value: { error: 'not a collection' } },
});

/**
 * One page of a delta round (`api-reference/v1.0/api/user-delta.md`, examples `user_delta` and
 * `user_delta_select`): `@odata.nextLink` while the round goes on, `@odata.deltaLink` on its last page, never both.
 */
export function deltaPage(
  context: string,
  value: readonly unknown[],
  link: { readonly nextLink: string } | { readonly deltaLink: string },
): ReplayAnswer {
  const member =
    'nextLink' in link ? { '@odata.nextLink': link.nextLink } : { '@odata.deltaLink': link.deltaLink };
  return {
    status: 200,
    headers: { 'request-id': randomUUID(), 'odata-version': '4.0' },
    body: { '@odata.context': context, ...member, value },
  };
}
