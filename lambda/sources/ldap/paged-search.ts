/**
 * The pages of one RFC 2696 paged search, with two rules of our own on top of ldapts's paging:
 * - A page size the server refuses as too large (result 4 sizeLimitExceeded or 11 adminLimitExceeded on
 *   the first page, as a directory enforcing a lower MaxPageSize answers) is halved and the search
 *   restarted, since nothing was delivered yet; the size that worked is kept for later reads.
 * - A search continuation reference (a part of the tree held elsewhere) is never followed, and since its
 *   entries would be missing, the read fails rather than end complete without them.
 */
import type { SearchResult } from 'ldapts';
import { ProviderError } from '../kernel/index.js';

/** The result codes a directory refuses a too-large page with. */
const TOO_LARGE = new Set([4, 11]);
/** Below this the refusal is not about the page size. */
const SMALLEST_PAGE = 10;

/** A search of `pageSize` entries per page, and where the size that worked is kept. */
export interface PagedSearchOptions {
  readonly search: (pageSize: number) => AsyncIterator<SearchResult>;
  readonly pageSize: () => number;
  readonly lowered: (pageSize: number) => void;
}

const resultCode = (error: unknown) => (error as { code?: unknown } | undefined)?.code;

/** Iterates the search's pages (see the module comment for what it adds). */
export function pagedSearch(options: PagedSearchOptions): AsyncIterator<SearchResult> {
  let pages: AsyncIterator<SearchResult> | undefined;
  return {
    async next() {
      let step: IteratorResult<SearchResult>;
      if (pages === undefined) {
        for (;;) {
          const size = options.pageSize();
          pages = options.search(size);
          try {
            step = await pages.next();
            break;
          } catch (error) {
            const code = resultCode(error);
            if (typeof code !== 'number' || !TOO_LARGE.has(code) || size <= SMALLEST_PAGE) throw error;
            options.lowered(Math.max(SMALLEST_PAGE, Math.floor(size / 2)));
          }
        }
      } else step = await pages.next();
      if (step.done !== true && step.value.searchReferences.length > 0)
        throw new ProviderError('source_unavailable', 'referral_not_followed');
      return step;
    },
  };
}
