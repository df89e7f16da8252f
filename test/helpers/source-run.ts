/**
 * One source read through the real federation engine, with everything observable kept: events with the
 * time they arrived, log entries, the result, and the terminal as text (`complete 2`, `rate_limited 0`).
 */
import { runFederation } from '../../lambda/federation/index.js';
import type {
  FederationEvent,
  FederationLogEntry,
  SourceAdapter,
  SourceQuery,
} from '../../lambda/federation/index.js';

/** What one run showed. */
export interface SourceRun {
  readonly events: readonly (FederationEvent & { readonly at: number })[];
  readonly logs: readonly FederationLogEntry[];
  /** `complete <lastPageIndex>` or `<code> <lastPageIndex>`. */
  readonly terminal: string | undefined;
  /** Records delivered in page events, in order. */
  readonly delivered: number;
  /** Largest delivery page. */
  readonly largestPage: number;
  /** Everything a client or log could see, as one string (for leak checks). */
  readonly visible: string;
}

/** Reads `adapter` for `query` within `budgetMs`; `signal` aborts the whole run (a client disconnect). */
export async function runSource(
  adapter: SourceAdapter,
  query: SourceQuery = { operation: 'list_people' },
  options: { budgetMs?: number; signal?: AbortSignal } = {},
): Promise<SourceRun> {
  const events: (FederationEvent & { at: number })[] = [];
  const logs: FederationLogEntry[] = [];
  let result: unknown;
  try {
    result = await runFederation({
      sources: [adapter],
      query,
      deadline: Date.now() + (options.budgetMs ?? 10_000),
      onEvent: (event) => void events.push({ ...event, at: Date.now() }),
      onLog: (entry) => logs.push(entry),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    result = { failed: error instanceof Error ? error.name : typeof error };
  }
  const pages = events.filter((e) => e.type === 'page');
  const last = events.find((e) => e.type !== 'page');
  return {
    events,
    logs,
    terminal:
      last === undefined ? undefined : `${last.type === 'error' ? last.code : last.type} ${last.pageIndex}`,
    delivered: pages.reduce((n, e) => n + (e.type === 'page' ? e.records.length : 0), 0),
    largestPage: Math.max(0, ...pages.map((e) => (e.type === 'page' ? e.records.length : 0))),
    visible: JSON.stringify({ events, logs, result }),
  };
}
