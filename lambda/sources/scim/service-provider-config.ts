/**
 * What a SCIM server says it can do (`GET /ServiceProviderConfig`, RFC 7643 §5, with RFC 9865's
 * `pagination`): filtering, its result cap, and index or cursor paging. SCIM servers diverge a lot, so
 * the adapter asks instead of assuming.
 */

/** The capabilities the adapter uses. */
export interface ScimCapabilities {
  readonly filter: boolean;
  /** The server's cap on results per request (`filter.maxResults`, `pagination.maxPageSize`). */
  readonly maxResults: number | undefined;
  readonly paging: 'index' | 'cursor';
}

const objectAt = (value: unknown, key: string): Record<string, unknown> | undefined => {
  const child =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof child === 'object' && child !== null && !Array.isArray(child)
    ? (child as Record<string, unknown>)
    : undefined;
};

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;

/**
 * Reads a ServiceProviderConfig body. Cursor paging is used when the server supports it and either has no
 * index paging or prefers cursors (RFC 9865 §2.3 `defaultPaginationMethod`); otherwise index paging.
 */
export function parseServiceProviderConfig(json: unknown): ScimCapabilities {
  const filter = objectAt(json, 'filter');
  const pagination = objectAt(json, 'pagination');
  const cursor = pagination?.['cursor'] === true;
  const index = pagination?.['index'] !== false;
  const prefersCursor = pagination?.['defaultPaginationMethod'] === 'cursor';
  const caps = [positive(filter?.['maxResults']), positive(pagination?.['maxPageSize'])].filter(
    (n): n is number => n !== undefined,
  );
  return {
    filter: filter?.['supported'] === true,
    maxResults: caps.length === 0 ? undefined : Math.min(...caps),
    paging: cursor && (!index || prefersCursor) ? 'cursor' : 'index',
  };
}
