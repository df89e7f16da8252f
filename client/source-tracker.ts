/**
 * Frame-by-frame bookkeeping for `notifications/bos/source_result` (contract §4, checklist item 5):
 * request id, global sequence, per-source page indexes and exactly one terminal per source pair.
 * Pure and synchronous so every rule can be tested without I/O.
 */
import {
  SOURCE_ERROR_CODES,
  type PageOrigin,
  type ProtocolViolation,
  type ProvisionalPage,
  type PublicContext,
  type RequestId,
  type SourceProgress,
  type SourceRef,
  type SourceResultsEvent,
  type SourceTerminal,
} from './source-results-types.js';

/** The JSON-RPC method of source notifications (contract §3). */
export const SOURCE_RESULT_METHOD = 'notifications/bos/source_result';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isIndex = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** Source pairs are keyed by both parts, JSON-encoded so no separator can collide. */
const keyOf = (s: SourceRef): string => JSON.stringify([s.source_type, s.source_identity]);
const label = (s: SourceRef): string => `${s.source_type}/${s.source_identity}`;

/** Tracks one invocation's source notifications and turns them into consumer events. */
export class SourceResultsTracker {
  readonly observedPages: ProvisionalPage[] = [];
  readonly violations: ProtocolViolation[] = [];
  readonly #requestId: RequestId;
  readonly #sources = new Map<string, SourceProgress>();
  #expectedSequence = 1;
  #seenSequences = new Set<number>();

  constructor(requestId: RequestId) {
    this.#requestId = requestId;
  }

  /** Per-source progress in first-seen order. */
  get sources(): SourceProgress[] {
    return [...this.#sources.values()];
  }

  /**
   * Handles the `params` of one source notification and returns the events it produces, in order.
   * Breaches are reported as `violation` events and never throw.
   */
  accept(params: unknown, elapsedMs: number): SourceResultsEvent[] {
    const events: SourceResultsEvent[] = [];
    const violate = (v: ProtocolViolation): void => {
      this.violations.push(v);
      events.push({ type: 'violation', violation: v });
    };
    const frame = parseFrame(params);
    if (typeof frame === 'string') {
      violate({ kind: 'invalid_frame', message: frame });
      return events;
    }
    const { sequence, source, pageIndex } = frame;
    // Checklist item 5: a frame for another request is not an observation of this one.
    if (frame.requestId !== this.#requestId) {
      violate({
        kind: 'request_id_mismatch',
        message: `frame requestId ${JSON.stringify(frame.requestId)} does not match ${JSON.stringify(this.#requestId)}`,
        sequence,
        source,
      });
      return events;
    }
    this.#checkSequence(sequence, source, violate);

    const key = keyOf(source);
    let progress = this.#sources.get(key);
    if (progress === undefined) {
      progress = { source, pages: 0, records: 0, lastPageIndex: 0, terminal: undefined };
      this.#sources.set(key, progress);
    }
    if (progress.terminal !== undefined) {
      const kind = frame.status === 'page' ? 'page_after_terminal' : 'second_terminal';
      violate({
        kind,
        message: `${label(source)}: ${frame.status} frame after its terminal`,
        sequence,
        source,
      });
      return events;
    }

    if (frame.status === 'page') {
      // Contract §4: page indexes begin at 1 and advance by one for each page.
      if (pageIndex !== progress.lastPageIndex + 1)
        violate({
          kind: 'page_gap',
          message: `${label(source)}: pageIndex ${pageIndex} after ${progress.lastPageIndex}`,
          sequence,
          source,
        });
      progress.pages += 1;
      progress.records += frame.records.length;
      progress.lastPageIndex = Math.max(progress.lastPageIndex, pageIndex);
      const page: ProvisionalPage = {
        provisional: true,
        source,
        pageIndex,
        sequence,
        records: frame.records,
        origin: frame.origin,
        elapsedMs,
      };
      if (frame.context !== undefined) page.context = frame.context;
      this.observedPages.push(page);
      events.push({ type: 'page', page });
      return events;
    }

    // A terminal repeats the last page index (0 for a source with no pages: contract §4).
    if (pageIndex !== progress.lastPageIndex)
      violate({
        kind: 'terminal_page_index',
        message: `${label(source)}: ${frame.status} with pageIndex ${pageIndex}, last page was ${progress.lastPageIndex}`,
        sequence,
        source,
      });
    if (frame.records.length > 0)
      violate({
        kind: 'terminal_with_records',
        message: `${label(source)}: ${frame.status} frame carries ${frame.records.length} record(s)`,
        sequence,
        source,
      });
    const terminal: SourceTerminal = {
      status: frame.status,
      source,
      pageIndex,
      sequence,
      pages: progress.pages,
      records: progress.records,
      elapsedMs,
    };
    if (frame.status === 'error') {
      terminal.errorCode = frame.errorCode ?? '';
      if (!(SOURCE_ERROR_CODES as readonly string[]).includes(terminal.errorCode))
        violate({
          kind: 'unknown_error_code',
          message: `${label(source)}: error code ${JSON.stringify(frame.errorCode ?? null)} is not one of the five contract codes`,
          sequence,
          source,
        });
    }
    progress.terminal = terminal;
    events.push({ type: frame.status === 'complete' ? 'source_complete' : 'source_error', terminal });
    return events;
  }

  /** At a normally completed final result: every source seen must have ended (contract §5). */
  missingTerminals(): ProtocolViolation[] {
    const found: ProtocolViolation[] = [];
    for (const progress of this.#sources.values())
      if (progress.terminal === undefined)
        found.push({
          kind: 'missing_terminal',
          message: `${label(progress.source)}: no complete or error before the final response`,
          source: progress.source,
        });
    this.violations.push(...found);
    return found;
  }

  #checkSequence(sequence: number, source: SourceRef, violate: (v: ProtocolViolation) => void): void {
    // Contract §4: one global sequence per invocation, 1..N, no gaps, no duplicates.
    if (this.#seenSequences.has(sequence)) {
      violate({ kind: 'sequence_duplicate', message: `sequence ${sequence} repeated`, sequence, source });
      return;
    }
    this.#seenSequences.add(sequence);
    if (sequence !== this.#expectedSequence)
      violate({
        kind: 'sequence_gap',
        message: `sequence ${sequence} where ${this.#expectedSequence} was expected`,
        sequence,
        source,
      });
    this.#expectedSequence = Math.max(this.#expectedSequence, sequence + 1);
  }
}

interface SourceFrame {
  requestId: unknown;
  sequence: number;
  pageIndex: number;
  source: SourceRef;
  records: unknown[];
  status: 'page' | 'complete' | 'error';
  errorCode: string | undefined;
  context: PublicContext | undefined;
  origin: PageOrigin;
}

/** The `_meta` key naming a page's origin (docs/bos.md "Reading a cached source"). */
export const PAGE_ORIGIN_META_KEY = 'bos/page_origin';

/** A page's origin from its `_meta`; anything unknown or absent is a live page. */
function originOf(meta: unknown): PageOrigin {
  const origin = isObject(meta) ? meta[PAGE_ORIGIN_META_KEY] : undefined;
  return origin === 'cache_baseline' || origin === 'source_delta' ? origin : 'live_provider';
}

/** Validates the frame shape; returns a reason string when it cannot be tracked. */
function parseFrame(params: unknown): SourceFrame | string {
  if (!isObject(params)) return 'source notification without params object';
  const { requestId, sequence, pageIndex, source, records, status, error, context, _meta } = params;
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return 'requestId missing';
  if (!Number.isSafeInteger(sequence) || (sequence as number) < 1)
    return 'sequence is not a positive integer';
  if (!isIndex(pageIndex)) return 'pageIndex is not a non-negative integer';
  if (
    !isObject(source) ||
    typeof source.source_type !== 'string' ||
    typeof source.source_identity !== 'string'
  )
    return 'source is not a {source_type, source_identity} pair';
  if (!Array.isArray(records)) return 'records is not an array';
  if (status !== 'page' && status !== 'complete' && status !== 'error')
    return `unknown status ${JSON.stringify(status)}`;
  if (status === 'page' && pageIndex < 1) return 'page frame with pageIndex 0';
  const errorCode = isObject(error) && typeof error.code === 'string' ? error.code : undefined;
  return {
    requestId,
    sequence: sequence as number,
    pageIndex,
    source: { source_type: source.source_type, source_identity: source.source_identity },
    records,
    status,
    errorCode,
    context: isObject(context) ? context : undefined,
    origin: originOf(_meta),
  };
}
