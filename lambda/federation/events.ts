/**
 * Engine events: what the streaming layer turns into `notifications/bos/source_result` frames (§3–§5),
 * and the log hook's entries.
 */
import type { FederatedRecord, SourceErrorCode, SourceRef } from './types.js';

/** Where a page's records came from, when not from the provider directly (a layered read's layer). */
export type PageOrigin = 'cache_baseline' | 'source_delta';

/** A delivery page: at most `pageSize` records, source-locally federated. pageIndex runs 1, 2, … per source. */
export interface PageEvent {
  readonly type: 'page';
  readonly source: SourceRef;
  readonly pageIndex: number;
  readonly records: readonly FederatedRecord[];
  /** Absent for records read live from the provider. */
  readonly origin?: PageOrigin;
}

/** The source finished; `pageIndex` is its last page's index, 0 when it delivered none (§4). */
export interface CompleteEvent {
  readonly type: 'complete';
  readonly source: SourceRef;
  readonly pageIndex: number;
}

/** The source failed after `pageIndex` pages (0 if none); its delivered pages still count (§5). */
export interface ErrorEvent {
  readonly type: 'error';
  readonly source: SourceRef;
  readonly pageIndex: number;
  readonly code: SourceErrorCode;
}

/** Every source gets its pages, then exactly one terminal: `complete` or `error`. */
export type FederationEvent = PageEvent | CompleteEvent | ErrorEvent;

/**
 * A structured log entry. It never carries provider exception text (which may hold credentials): only a
 * reason tag and, for throws, the error's class name.
 */
export interface FederationLogEntry {
  readonly level: 'warn';
  readonly event: 'source_failed';
  readonly source: SourceRef;
  /** `adapter_threw`, `invalid_record`, `source_identity_mismatch`, `provider_page_not_array`. */
  readonly reason: string;
  readonly error_name?: string;
}
