/**
 * Paging kinds of HTTP providers, each a function from the page just read to the next page's URL
 * (undefined: that was the last page). Every next URL is resolved against the current one and must stay
 * on the source's origin. LDAP's paged-results cookie is the LDAP adapter's own `fetch` step in the same
 * page loop (`page-loop.ts`).
 */
import { ProviderError } from './errors.js';
import { headerValue } from './rate-limit.js';
import type { JsonPage } from './provider-request.js';
import { sameOriginNext } from './url-policy.js';

/**
 * Computes the next page's URL from the page just read: its response, how many items it carried, and the
 * items themselves (for the repeated-page guard).
 */
export type NextPageUrl = (page: JsonPage, items: number, list?: readonly unknown[]) => URL | undefined;

const withParam = (url: URL, name: string, value: string): URL => {
  const next = new URL(url);
  next.searchParams.set(name, value);
  return next;
};

const fieldOf = (json: unknown, field: string): unknown =>
  typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[field] : undefined;

/**
 * Fails the read when a page starts with the same item as the page before it: a provider that ignores the
 * offset would otherwise be paged, and its first page repeated, until the page loop's cap.
 */
export function repeatedPageGuard(): (list: readonly unknown[] | undefined) => void {
  let previous: string | undefined;
  return (list) => {
    if (list === undefined || list.length === 0) return;
    const first = JSON.stringify(list[0]);
    if (first === previous) throw new ProviderError('source_unavailable', 'paging_loop');
    previous = first;
  };
}

/**
 * 1-based index paging (SCIM `startIndex`/`count`, RFC 7644 §3.4.2.4), lossless: a read ends on an empty
 * page, or once a short page reaches a readable `totalResults`. A full page that reaches the total asks
 * once more (a total that counts only the page would otherwise end the read early), a total smaller than
 * what was already received is ignored, and without a total the read pages until an empty page. A total
 * that shrinks between pages is normal and simply ends sooner.
 */
export function indexPaging(options: {
  startParam?: string;
  countParam?: string;
  /** Reads the total from the body. @default the `totalResults` field */
  totalOf?: (json: unknown) => unknown;
}): NextPageUrl {
  const startParam = options.startParam ?? 'startIndex';
  const countParam = options.countParam ?? 'count';
  const totalOf = options.totalOf ?? ((json: unknown) => fieldOf(json, 'totalResults'));
  const guard = repeatedPageGuard();
  return (page, items, list) => {
    if (items === 0) return undefined;
    guard(list);
    const start = Number(page.url.searchParams.get(startParam) ?? '1');
    const asked = Number(page.url.searchParams.get(countParam) ?? Number.NaN);
    const total = totalOf(page.json);
    const received = start - 1 + items;
    // A full page proves nothing about the end; without a count asked, every page counts as short.
    const short = !Number.isFinite(asked) || items < asked;
    if (short && total === received) return undefined;
    return withParam(page.url, startParam, String(start + items));
  };
}

/** Cursor paging (RFC 9865 `cursor` / `nextCursor`; Google's `pageToken`/`nextPageToken` alike). */
export function cursorPaging(options: { cursorParam?: string; nextField?: string } = {}): NextPageUrl {
  const cursorParam = options.cursorParam ?? 'cursor';
  const nextField = options.nextField ?? 'nextCursor';
  return (page) => {
    const next = fieldOf(page.json, nextField);
    if (next === undefined || next === null || next === '') return undefined;
    if (typeof next !== 'string') throw new ProviderError('source_unavailable', 'invalid_response');
    if (next === page.url.searchParams.get(cursorParam))
      throw new ProviderError('source_unavailable', 'paging_loop');
    return withParam(page.url, cursorParam, next);
  };
}

/** `Link: <…>; rel="next"` (RFC 8288; Okta). */
export function linkPaging(origin: string): NextPageUrl {
  return (page) => {
    const header = headerValue(page.headers, 'link');
    if (header === undefined) return undefined;
    for (const part of header.split(/,(?=\s*<)/)) {
      const match = /^\s*<([^>]*)>(.*)$/.exec(part);
      if (match === null) continue;
      const rels =
        /;\s*rel\s*=\s*"?([^";]+)"?/i
          .exec(match[2] ?? '')?.[1]
          ?.toLowerCase()
          .split(/\s+/) ?? [];
      if (rels.includes('next')) return sameOriginNext(match[1] ?? '', page.url, origin);
    }
    return undefined;
  };
}

/** A next URL in the body (Graph's `@odata.nextLink`, a generic `next`). */
export function nextUrlPaging(field: string, origin: string): NextPageUrl {
  return (page) => {
    const next = fieldOf(page.json, field);
    if (next === undefined || next === null || next === '') return undefined;
    if (typeof next !== 'string') throw new ProviderError('source_unavailable', 'invalid_response');
    return sameOriginNext(next, page.url, origin);
  };
}
