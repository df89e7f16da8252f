/**
 * Public types of the `bos/source-results/v1` consumer. Field names follow the wire contract
 * (`/mcp/apps/bos/platform`, contract version 1) so that nothing is renamed between wire and caller.
 */

/** A JSON-RPC id: non-null string or integer (contract §2). */
export type RequestId = string | number;

/** The complete source pair; pages and terminals are tracked per pair (contract §6 item 5). */
export interface SourceRef {
  source_type: string;
  source_identity: string;
}

/** The five terminal error codes of contract §5. */
export const SOURCE_ERROR_CODES = [
  'source_timeout',
  'source_identity_mismatch',
  'provider_authorization_required',
  'rate_limited',
  'source_unavailable',
] as const;
export type SourceErrorCode = (typeof SOURCE_ERROR_CODES)[number];

/** The public BOS context object carried by frames and by `bos_execute` results. */
export type PublicContext = Record<string, unknown>;

/**
 * Where a page's records came from: the server marks a page answered from a cached source's baseline or
 * its delta in `params._meta["bos/page_origin"]`; a page without it was read live from the provider.
 */
export type PageOrigin = 'cache_baseline' | 'source_delta' | 'live_provider';

/**
 * One `status: "page"` notification. PROVISIONAL: the final result is authoritative and may merge,
 * re-identify or recount these records (contract §4), so never add them to the final records.
 */
export interface ProvisionalPage {
  provisional: true;
  source: SourceRef;
  pageIndex: number;
  sequence: number;
  records: unknown[];
  context?: PublicContext;
  origin: PageOrigin;
  /** Milliseconds since the consumer started reading. */
  elapsedMs: number;
}

/** A `complete` or `error` terminal status of one source. */
export interface SourceTerminal {
  status: 'complete' | 'error';
  source: SourceRef;
  /** The pageIndex of the terminal frame (0 for a source that delivered no pages). */
  pageIndex: number;
  sequence: number;
  /** Present on `error`. */
  errorCode?: string;
  /** Pages seen from this source before the terminal. */
  pages: number;
  /** Provisional records seen from this source before the terminal. */
  records: number;
  elapsedMs: number;
}

/** What the consumer knows about one source at any moment. */
export interface SourceProgress {
  source: SourceRef;
  pages: number;
  records: number;
  lastPageIndex: number;
  terminal: SourceTerminal | undefined;
}

/** Kinds of contract breaches the consumer reports (they never stop consumption). */
export type ViolationKind =
  | 'request_id_mismatch'
  | 'sequence_gap'
  | 'sequence_duplicate'
  | 'sequence_invalid'
  | 'page_gap'
  | 'page_after_terminal'
  | 'second_terminal'
  | 'terminal_page_index'
  | 'terminal_with_records'
  | 'unknown_error_code'
  | 'missing_terminal'
  | 'invalid_frame'
  | 'unexpected_response'
  | 'unexpected_event';

/** One detected breach, with enough detail to print. */
export interface ProtocolViolation {
  kind: ViolationKind;
  message: string;
  sequence?: number;
  source?: SourceRef;
}

/** The stream and frame counters of one consumption. */
export interface ConsumeDiagnostics {
  comments: number;
  emptyEvents: number;
  sourceFrames: number;
  otherNotifications: number;
  /** Reconnections with `Last-Event-ID` after the stream broke (`ConsumeOptions.resume`). */
  resumes: number;
}

/** Where the final records were found (contract §5). */
export type ResultPath = 'direct' | 'execute' | 'other';

/** Observations common to confirmed and unconfirmed outcomes. */
export interface ObservedSummary {
  /** `sse` when the server negotiated the stream, `json` for the existing JSON delivery. */
  delivery: 'sse' | 'json';
  /** Every provisional page, in arrival order. Never merged into `records`. */
  observedPages: ProvisionalPage[];
  sources: SourceProgress[];
  violations: ProtocolViolation[];
  diagnostics: ConsumeDiagnostics;
}

/** The matching final JSON-RPC response arrived: this is the authoritative result. */
export interface ConfirmedOutcome extends ObservedSummary {
  confirmed: true;
  id: RequestId;
  /** The top-level JSON-RPC error, if the final response was an error. */
  error?: { code: number; message: string; data?: unknown };
  /** The raw CallToolResult (or other result), if the final response was a result. */
  result?: Record<string, unknown>;
  isError: boolean;
  path: ResultPath;
  /** The final, identity-merged records (authoritative; replace the provisional pages). */
  records?: unknown[];
  metadata?: Record<string, unknown>;
  completeness?: string;
  resultCount?: number;
  sourceErrors: { source: SourceRef; code: string }[];
  context?: PublicContext;
  /** 2026-07-28 results: `complete` means the invocation finished (it can coexist with `partial`). */
  resultType?: string;
}

/** EOF or a connection failure came before the matching final response (contract §5). */
export interface UnconfirmedOutcome extends ObservedSummary {
  confirmed: false;
  reason: 'no confirmed result';
  cause: 'eof' | 'network';
  /** Safe description of the read failure, for diagnostics. */
  detail?: string;
}

export type SourceResultsOutcome = ConfirmedOutcome | UnconfirmedOutcome;

/** Events of the async-iterator API, in arrival order. */
export type SourceResultsEvent =
  | { type: 'page'; page: ProvisionalPage }
  | { type: 'source_complete'; terminal: SourceTerminal }
  | { type: 'source_error'; terminal: SourceTerminal }
  | { type: 'violation'; violation: ProtocolViolation }
  | { type: 'notification'; method: string; params: unknown };

/** Callbacks of the callback API; each mirrors one {@link SourceResultsEvent}. */
export interface SourceResultsHandlers {
  onPage?: (page: ProvisionalPage) => void;
  onSourceComplete?: (terminal: SourceTerminal) => void;
  onSourceError?: (terminal: SourceTerminal) => void;
  onViolation?: (violation: ProtocolViolation) => void;
  onNotification?: (method: string, params: unknown) => void;
}
