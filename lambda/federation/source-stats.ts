/**
 * Per-source read statistics of one federation run, taken from the engine's events: what an operator's
 * metrics need (time to first page, pages, records, the terminal code) and nothing a client sent or a
 * provider said. The collector is an event observer; it never changes the run.
 */
import type { FederationEvent } from './events.js';
import type { SourceErrorCode, SourceRef } from './types.js';

/** One source's part of a run. */
export interface SourceReadStats {
  readonly source: SourceRef;
  /** Milliseconds from the run's start to this source's first delivery page; absent when it delivered none. */
  readonly firstPageMs?: number;
  /** Delivery pages emitted (the engine's re-chunked pages, as a client sees them). */
  readonly pages: number;
  /** Records in those pages. */
  readonly records: number;
  /** The source's terminal error code; absent when it completed or the run ended before its terminal. */
  readonly error?: SourceErrorCode;
}

/** Observes one run's events; `stats()` lists every source seen, in the order they first appeared. */
export interface SourceStatsCollector {
  observe(event: FederationEvent): void;
  /** Sources that appeared in no event are added with zeros (they never started before the run ended). */
  stats(sources?: readonly SourceRef[]): SourceReadStats[];
}

interface Tally {
  source: SourceRef;
  firstPageMs?: number;
  pages: number;
  records: number;
  error?: SourceErrorCode;
}

const keyOf = (source: SourceRef) => `${source.source_type}\u0000${source.source_identity}`;

/**
 * A collector for a run that starts now.
 * @param now real time in ms (the engine's deadlines use `Date.now` too) @default Date.now
 */
export function collectSourceStats(now: () => number = Date.now): SourceStatsCollector {
  const startedAt = now();
  const tallies = new Map<string, Tally>();
  const tallyOf = (source: SourceRef): Tally => {
    const key = keyOf(source);
    let tally = tallies.get(key);
    if (tally === undefined) {
      tally = {
        source: { source_type: source.source_type, source_identity: source.source_identity },
        pages: 0,
        records: 0,
      };
      tallies.set(key, tally);
    }
    return tally;
  };
  return {
    observe(event) {
      const tally = tallyOf(event.source);
      if (event.type === 'page') {
        tally.firstPageMs ??= Math.max(0, now() - startedAt);
        tally.pages += 1;
        tally.records += event.records.length;
      } else if (event.type === 'error') {
        tally.error = event.code;
      }
    },
    stats(sources = []) {
      for (const source of sources) tallyOf(source);
      return [...tallies.values()].map((t) => ({ ...t, source: t.source }));
    },
  };
}
