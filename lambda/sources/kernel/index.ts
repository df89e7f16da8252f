/**
 * The provider kernel every real adapter is built on (DESIGN §4 "Real sources and the provider kernel").
 *
 * - {@link ReadBudget}: the engine's `ReadOptions` as a per-request signal that also fires at the deadline,
 *   waits that wake on abort, and `fits(ms)` for rate-limit and retry decisions.
 * - {@link ProviderHttp}: one provider request (`getJson`/`send`) on the platform `fetch`: `https` only (loopback
 *   `http` when `allowLoopbackHttp`), no redirects, bounded body, `429` waits that fit the budget
 *   (`Retry-After`, `X-Rate-Limit-Reset`), one jittered retry for 5xx/reset, statuses mapped to the five codes.
 * - {@link providerPages}: the page loop (fetch, map/validate items, yield per provider page, prefetch the
 *   next page); HTTP paging kinds {@link indexPaging}, {@link cursorPaging}, {@link linkPaging},
 *   {@link nextUrlPaging}; LDAP passes its own cookie step as `fetchPage`.
 * - {@link matchRecords} / {@link localMatcher}: the one local matching semantics (NFKC, caseless) for
 *   queries a provider does not answer itself.
 * - {@link ProviderError}: the only error an adapter throws — a contract code plus a reason of ours.
 * - Credentials: {@link resolveCredential}, {@link bearerAuthorization}, {@link basicAuthorization}.
 */
export { ReadBudget } from './budget.js';
export { basicAuthorization, bearerAuthorization, resolveCredential } from './credentials.js';
export type { CredentialSource } from './credentials.js';
export { isProviderError, ProviderError } from './errors.js';
export type { ProviderFailureReason } from './errors.js';
export { DEFAULT_MAX_BODY_BYTES, sendHttp, TransportError } from './http-transport.js';
export type { HttpExchange, HttpResult } from './http-transport.js';
export { anyContains, foldForMatch, localMatcher, matchRecords, recordSearchText } from './local-match.js';
export type { RecordMatch } from './local-match.js';
export { providerPages } from './page-loop.js';
export type { ItemOutcome, PageLoopOptions, ProviderPage } from './page-loop.js';
export { cursorPaging, indexPaging, linkPaging, nextUrlPaging, repeatedPageGuard } from './paging.js';
export type { NextPageUrl } from './paging.js';
export { ProviderHttp } from './provider-request.js';
export type { JsonPage } from './provider-request.js';
export { headerValue, rateLimitWaitMs } from './rate-limit.js';
export type { HeaderBag } from './rate-limit.js';
export type { ProviderLogEntry, ProviderSettings } from './settings.js';
export { codeForHttpStatus, isRetryableStatus, isRetryableTransport } from './status-map.js';
export { assertProviderUrl, isAllowedProviderUrl, isLoopbackHost, sameOriginNext } from './url-policy.js';
