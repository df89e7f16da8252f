/**
 * Options of {@link runFederation} and their validation (fail closed before any source is read).
 */
import { FederationError } from './errors.js';
import type { FederationEvent, FederationLogEntry } from './events.js';
import type { SourceAdapter, SourceQuery } from './port.js';

/** Options of one federation run. */
export interface FederationOptions {
  /** Sources in the order reads start (a stable order, DESIGN §4). Each source pair at most once. */
  readonly sources: readonly SourceAdapter[];
  readonly query: SourceQuery;
  /**
   * Most records in one delivery page (the advertised `pageSize`).
   * @default 100
   */
  readonly pageSize?: number;
  /**
   * Most source reads in flight at once (the advertised `maxConcurrentSources`).
   * @default 8
   */
  readonly maxConcurrentSources?: number;
  /**
   * Operation budget as absolute epoch ms (`Date.now()` time): the caller passes min(operation deadline,
   * Lambda remaining time − reserve). Unfinished sources end with `source_timeout` when it passes.
   */
  readonly deadline: number;
  /**
   * Per-source timeout in ms, counted from the source's start; an adapter's own `timeoutMs` wins.
   * @default undefined (only the operation deadline bounds a source)
   */
  readonly sourceTimeoutMs?: number;
  /** Client disconnect: aborts every read at once and rejects the run with `operation_aborted`. */
  readonly signal?: AbortSignal;
  /**
   * Source of the `observed_at` timestamps in the metadata (epoch ms). Deadlines use real time.
   * @default Date.now
   */
  readonly clock?: () => number;
  /**
   * Receives pages and terminals in event order. A returned promise is backpressure: that source pulls no
   * further provider page until it settles (or the source's time runs out). A throw or rejection fails the run.
   */
  readonly onEvent?: (event: FederationEvent) => void | Promise<void>;
  /** Structured log hook (no provider exception text ever reaches it). */
  readonly onLog?: (entry: FederationLogEntry) => void;
}

const isPositiveInteger = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;
const isName = (v: unknown) => typeof v === 'string' && v !== '' && !v.includes('\u0000');

function invalid(message: string): FederationError {
  return new FederationError('invalid_options', message);
}

/** Throws {@link FederationError} `invalid_options` for options no run can honour. */
export function validateOptions(options: FederationOptions): void {
  const { pageSize, maxConcurrentSources, deadline, sourceTimeoutMs, query } = options;
  if (pageSize !== undefined && !isPositiveInteger(pageSize))
    throw invalid('pageSize must be a positive integer');
  if (maxConcurrentSources !== undefined && !isPositiveInteger(maxConcurrentSources))
    throw invalid('maxConcurrentSources must be a positive integer');
  if (typeof deadline !== 'number' || Number.isNaN(deadline))
    throw invalid('deadline must be epoch milliseconds');
  if (sourceTimeoutMs !== undefined && !(sourceTimeoutMs >= 0)) throw invalid('sourceTimeoutMs must be >= 0');
  if (query.operation === 'search_people' && query.limit !== undefined && !isPositiveInteger(query.limit))
    throw invalid('limit must be a positive integer');
  const seen = new Set<string>();
  for (const adapter of options.sources) {
    const { source_type, source_identity } = adapter.source;
    if (!isName(source_type) || !isName(source_identity))
      throw invalid('source names must be non-empty text');
    // Two adapters for one source pair would make provenance validation meaningless.
    const pair = `${source_type}\u0000${source_identity}`;
    if (seen.has(pair)) throw invalid(`source ${source_type}/${source_identity} is listed twice`);
    seen.add(pair);
    if (adapter.timeoutMs !== undefined && !(adapter.timeoutMs >= 0)) throw invalid('timeoutMs must be >= 0');
  }
}
