/**
 * What the composition root decides for every real adapter (not per source): the loopback allowance of
 * the local stack, body bounds, retry jitter and where the kernel's safe log lines go.
 */
import type { SourceErrorCode, SourceRef } from '../../federation/index.js';
import type { ProviderFailureReason } from './errors.js';

/** One kernel observation. Every field is ours (no provider text, URL, header or credential). */
export interface ProviderLogEntry {
  readonly event:
    | 'provider_retry'
    | 'provider_rate_limit_wait'
    | 'provider_failed'
    | 'provider_records_skipped'
    /** A server refused a filter, or says it has none: its queries move to a step it accepts (once each). */
    | 'provider_filter_degraded'
    /** One read answered by local matching over a listing (every such read: a metric, not a log line). */
    | 'provider_local_match'
    /** An Active Directory account may not read tombstones: the source's deltas report no deletions (once). */
    | 'provider_tombstones_unreadable';
  readonly source: SourceRef;
  readonly code?: SourceErrorCode;
  readonly reason?:
    | ProviderFailureReason
    | 'server_error'
    | 'connection_reset'
    | 'malformed_record'
    | 'filter_refused'
    | 'filter_not_supported'
    | 'tombstones_not_readable';
  /** The filtering a degraded source now uses (`contains`, `exact`, `updated_since`, `local`). */
  readonly filter?: string;
  /** HTTP status or LDAP result code. */
  readonly status?: number;
  readonly wait_ms?: number;
  readonly count?: number;
}

/** Kernel settings shared by every adapter the composition root builds. */
export interface ProviderSettings {
  /**
   * Allow plain `http://` (and `ldap://` without StartTLS) to loopback hosts. Only the local stack and
   * tests set it; a deployed function talks `https`/`ldaps` only.
   * @default false
   */
  readonly allowLoopbackHttp?: boolean;
  /**
   * Largest provider response body (bytes); a bigger page fails the source with `source_unavailable`.
   * @default 8388608
   */
  readonly maxBodyBytes?: number;
  /**
   * How many `429` waits one provider page may take while they fit the budget.
   * @default 3
   */
  readonly maxRateLimitWaits?: number;
  /**
   * Wait after a `429` that names no `Retry-After`/`X-Rate-Limit-Reset` (ms).
   * @default 1000
   */
  readonly defaultRateLimitWaitMs?: number;
  /**
   * Jitter range of the single retry after a 5xx or a connection reset (ms).
   * @default [50, 250]
   */
  readonly retryJitterMs?: readonly [number, number];
  /** Receives the kernel's log lines. @default none */
  readonly log?: (entry: ProviderLogEntry) => void;
  /** @default Math.random */
  readonly random?: () => number;
}
