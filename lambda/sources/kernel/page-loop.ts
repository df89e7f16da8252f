/**
 * The provider page loop every real adapter runs: fetch a provider page, turn its items into records
 * (skipping and counting malformed ones, failing the source on one that is not this source's), yield
 * them as soon as the page is parsed, and fetch the next page meanwhile (asked for once the page has been
 * handed over). The engine splits each yielded page into delivery pages of at most `pageSize` records as
 * it arrives (`federation/source-reader.ts`), so a provider page of 500 publishes its first 100 before the
 * provider's next page is read.
 */
import type { RawRecord, SourceRef } from '../../federation/index.js';
import { ProviderError } from './errors.js';
import type { ProviderSettings } from './settings.js';

/** One provider page: its raw items and how to ask for the next (undefined: last page). */
export interface ProviderPage<Next> {
  readonly items: readonly unknown[];
  readonly next: Next | undefined;
}

/** What turning one item into a record gave: a record, or a reason to skip it. */
export type ItemOutcome = RawRecord | { readonly skip: 'malformed_record' };

/** Options of {@link providerPages}. */
export interface PageLoopOptions<Next> {
  readonly source: SourceRef;
  /** The first page's request. */
  readonly first: Next;
  /** Fetches one page; its `signal` fires when the loop is closed early (the prefetch is then dropped). */
  readonly fetchPage: (request: Next, signal: AbortSignal) => Promise<ProviderPage<Next>>;
  /**
   * Maps one item. Throws a `ProviderError('source_identity_mismatch')` for an item from outside the
   * configured source (the page is then never yielded).
   */
  readonly toRecord: (item: unknown) => ItemOutcome;
  /** Stop after this many records (search `limit`). */
  readonly limit?: number;
  /** Guards against a provider that pages forever. @default 100000 */
  readonly maxPages?: number;
  readonly settings?: ProviderSettings;
}

/** Resolves after the consumer of a just-yielded page has run (the next turn of the event loop). */
const handedOver = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Yields each provider page's valid records (possibly empty pages are skipped). */
export async function* providerPages<Next>(options: PageLoopOptions<Next>): AsyncGenerator<RawRecord[]> {
  const { source, fetchPage, toRecord } = options;
  const limit = options.limit ?? Infinity;
  const maxPages = options.maxPages ?? 100_000;
  // Aborts a prefetch left in flight when the consumer stops early (limit reached, source aborted).
  const closed = new AbortController();
  let pending: Promise<ProviderPage<Next>> | undefined = fetchPage(options.first, closed.signal);
  let pages = 0;
  let delivered = 0;
  try {
    while (pending !== undefined) {
      const page: ProviderPage<Next> = await pending;
      pending = undefined;
      pages++;
      const records: RawRecord[] = [];
      let skipped = 0;
      try {
        for (const item of page.items) {
          const outcome = toRecord(item);
          if ('skip' in outcome) skipped++;
          else records.push(outcome);
        }
      } catch (error) {
        if (error instanceof ProviderError)
          options.settings?.log?.({
            event: 'provider_failed',
            source,
            code: error.code,
            reason: error.reason,
          });
        throw error;
      }
      if (skipped > 0)
        options.settings?.log?.({
          event: 'provider_records_skipped',
          source,
          reason: 'malformed_record',
          count: skipped,
        });
      const room = limit - delivered;
      const published = records.length > room ? records.slice(0, room) : records;
      delivered += published.length;
      if (page.next !== undefined && delivered < limit) {
        const request = page.next;
        const fetched = pages;
        // Asked for once this page has been handed over: starting a request costs the fetch machinery's
        // CPU and allocations, which would otherwise sit between a parsed page and its delivery. The
        // immediate runs after the consumer's synchronous work on the page, while it is being streamed.
        pending = handedOver().then(() => {
          if (closed.signal.aborted) throw closed.signal.reason;
          // A provider that never stops paging fails the source after its last permitted page.
          if (fetched >= maxPages) throw new ProviderError('source_unavailable', 'paging_loop');
          return fetchPage(request, closed.signal);
        });
        pending.catch(() => undefined); // surfaced when awaited; never an unhandled rejection meanwhile
      }
      if (published.length > 0) yield published;
    }
  } finally {
    closed.abort(new DOMException('provider read closed', 'AbortError'));
  }
}
