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

/** Computes the next page's URL from the page just read. */
export type NextPageUrl = (page: JsonPage, items: number) => URL | undefined;

const withParam = (url: URL, name: string, value: string): URL => {
  const next = new URL(url);
  next.searchParams.set(name, value);
  return next;
};

const fieldOf = (json: unknown, field: string): unknown =>
  typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[field] : undefined;

/**
 * 1-based index paging (SCIM `startIndex`/`count`, RFC 7644 §3.4.2.4). The next start is this start plus
 * the items received; it stops on an empty page or once `totalResults` is reached (a total that shrinks
 * between pages is normal and simply ends sooner).
 */
export function indexPaging(options: { startParam?: string; totalField?: string }): NextPageUrl {
  const startParam = options.startParam ?? 'startIndex';
  const totalField = options.totalField ?? 'totalResults';
  return (page, items) => {
    if (items === 0) return undefined;
    const start = Number(page.url.searchParams.get(startParam) ?? '1');
    const total = fieldOf(page.json, totalField);
    const next = start + items;
    if (typeof total === 'number' && next > total) return undefined;
    if (typeof total !== 'number') return undefined; // without a total the end cannot be known: stop
    return withParam(page.url, startParam, String(next));
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
