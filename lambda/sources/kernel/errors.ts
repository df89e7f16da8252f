/**
 * The kernel's local error: a provider outcome already mapped onto one of the five contract codes
 * (`bos/source-results/v1` §5, table in docs/sources.md). It carries the code and a fixed reason token of
 * ours, never a provider's message, URL, header or credential, so logging it is always safe.
 */
import { SourceError } from '../../federation/index.js';
import type { SourceErrorCode } from '../../federation/index.js';

/** Why a provider read failed, in our own words (a closed set: safe for logs and metrics). */
export type ProviderFailureReason =
  | 'deadline'
  | 'http_status'
  | 'rate_limit_beyond_budget'
  | 'connection_failed'
  | 'connection_refused'
  | 'body_too_large'
  | 'invalid_json'
  | 'invalid_response'
  | 'redirect'
  | 'referral_not_followed'
  | 'cross_origin_next'
  | 'insecure_url'
  | 'paging_loop'
  | 'credential_unavailable'
  | 'identity_mismatch'
  | 'authorization'
  | 'busy'
  | 'unavailable';

/**
 * A provider failure with its contract code. The federation engine ends the source with `code`
 * (it is a {@link SourceError}); the message is `code (reason[, HTTP status])` and nothing else.
 */
export class ProviderError extends SourceError {
  readonly reason: ProviderFailureReason;
  /** The provider's HTTP status or LDAP result code, when one caused this. */
  readonly status: number | undefined;

  constructor(code: SourceErrorCode, reason: ProviderFailureReason, status?: number) {
    super(code, status === undefined ? `${code} (${reason})` : `${code} (${reason} ${status})`);
    this.reason = reason;
    this.status = status;
  }
}

/** Whether `error` is a {@link ProviderError}. */
export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
