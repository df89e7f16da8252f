/**
 * Provider HTTP statuses onto the five contract codes (docs/sources.md "What each error code means for an operator"):
 * 401/403 → `provider_authorization_required`, 429 → `rate_limited` (once no wait fits), 504 →
 * `source_timeout`, everything else that is not 2xx → `source_unavailable`.
 */
import type { SourceErrorCode } from '../../federation/index.js';

/** The contract code of a final (non-retried) HTTP status. */
export function codeForHttpStatus(status: number): SourceErrorCode {
  if (status === 401 || status === 403) return 'provider_authorization_required';
  if (status === 429) return 'rate_limited';
  if (status === 504) return 'source_timeout';
  return 'source_unavailable';
}

/** Statuses worth one retry with jitter: the provider or a proxy in front of it failed transiently. */
export function isRetryableStatus(status: number): boolean {
  return status === 500 || status === 502 || status === 503 || status === 504;
}

/** Connection failures worth one retry: the peer (or a stale keep-alive socket) dropped us mid-way. */
export function isRetryableTransport(code: string): boolean {
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || code === 'UND_ERR_SOCKET';
}
