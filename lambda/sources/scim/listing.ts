/**
 * One `/Users` listing of a read: its first page fetched up front (so a refused filter is known before
 * anything is published), then the kernel's page loop over index or cursor paging. Pages are read
 * losslessly (`readListPage`, the kernel's `indexPaging`): a page the adapter cannot read fails the source,
 * and a missing or inconsistent `totalResults` pages on until an empty page. When the query is answered
 * here, each page's users are matched by the kernel's local matching before they are mapped.
 */
import type { SourceQuery } from '../../federation/index.js';
import {
  codeForHttpStatus,
  cursorPaging,
  indexPaging,
  isProviderError,
  localMatcher,
  ProviderError,
} from '../kernel/index.js';
import type { HttpResult, ProviderHttp, ProviderPage } from '../kernel/index.js';
import { at, isObject, readListPage, scimBody, scimTypeOf } from './scim-json.js';

/** A page request: its URL, or the page already fetched. */
export interface ListingRequest {
  readonly url: URL;
  readonly prefetched?: ProviderPage<ListingRequest>;
}

/** An open listing, or the status with which the server refused its filter. */
export type Listing =
  | { readonly refused: number }
  | {
      readonly first: ListingRequest;
      readonly fetchPage: (
        request: ListingRequest,
        signal: AbortSignal,
      ) => Promise<ProviderPage<ListingRequest>>;
    };

/** What {@link openListing} needs. */
export interface ListingOptions {
  readonly http: ProviderHttp;
  readonly base: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly filter: string | undefined;
  readonly count: number;
  readonly paging: 'index' | 'cursor';
  /** The query to match here; undefined when the server's filter (or none) answers it. */
  readonly query: SourceQuery | undefined;
}

/** RFC 7644 §3.12: the filter itself was refused (not the request, nor the credential). */
const REFUSED_TYPES = new Set(['invalidfilter', 'invalidsyntax']);

function isRefusal(result: HttpResult): boolean {
  if (result.status === 501) return true;
  try {
    return REFUSED_TYPES.has(scimTypeOf(scimBody(result)) ?? '');
  } catch {
    return false;
  }
}

const textAt = (object: unknown, name: string): string | undefined => {
  const value = isObject(object) ? at(object, name) : undefined;
  return typeof value === 'string' ? value : undefined;
};

/** What local matching reads of a SCIM user: the attributes the server filter names. */
function searchText(user: unknown): (string | undefined)[] {
  const emails = isObject(user) ? at(user, 'emails') : undefined;
  return [
    textAt(user, 'displayName'),
    textAt(user, 'userName'),
    ...(Array.isArray(emails) ? emails.map((e) => textAt(e, 'value')) : []),
  ];
}

const changedAt = (user: unknown): string | undefined =>
  textAt(isObject(user) ? at(user, 'meta') : undefined, 'lastModified');

/** Fetches the listing's first page; a refused filter is answered, not thrown. */
export async function openListing(options: ListingOptions): Promise<Listing> {
  const { http, headers } = options;
  const first = new URL(`${options.base}/Users`);
  if (options.filter !== undefined) first.searchParams.set('filter', options.filter);
  if (options.paging === 'cursor') first.searchParams.set('cursor', '');
  else first.searchParams.set('startIndex', '1');
  first.searchParams.set('count', String(options.count));
  const next =
    options.paging === 'cursor'
      ? cursorPaging({ nextField: 'nextcursor' })
      : indexPaging({ totalOf: (json) => (isObject(json) ? json['totalresults'] : undefined) });
  const keep = options.query === undefined ? undefined : localMatcher(options.query, searchText, changedAt);

  const fetchList = async (
    url: URL,
    signal: AbortSignal | undefined,
    mayRefuse: boolean,
  ): Promise<ProviderPage<ListingRequest> | { refused: number }> => {
    const result = await http.send(url, headers, {
      passStatus: [400, 501],
      ...(signal === undefined ? {} : { signal }),
    });
    if (result.status === 400 || result.status === 501) {
      if (mayRefuse && isRefusal(result)) return { refused: result.status };
      throw http.failed(new ProviderError(codeForHttpStatus(result.status), 'http_status', result.status));
    }
    try {
      const body = scimBody(result);
      const start = url.searchParams.get('startIndex');
      const page = readListPage(body, start === null ? undefined : Number(start));
      const { items } = page;
      const nextUrl = next(
        { url, status: result.status, headers: result.headers, json: body },
        items.length,
        items,
      );
      return { items: keep === undefined ? items : items.filter(keep), next: nextUrl && { url: nextUrl } };
    } catch (error) {
      throw isProviderError(error) ? http.failed(error) : error;
    }
  };

  const opened = await fetchList(first, undefined, options.filter !== undefined);
  if ('refused' in opened) return opened;
  return {
    first: { url: first, prefetched: opened },
    fetchPage: async (request, signal) => {
      if (request.prefetched !== undefined) return request.prefetched;
      const page = await fetchList(request.url, signal, false);
      if ('refused' in page) throw new ProviderError('source_unavailable', 'http_status', page.refused);
      return page;
    },
  };
}
