/**
 * What a SCIM server says it can do (`GET /ServiceProviderConfig`, RFC 7643 §5, with RFC 9865's
 * `pagination`): filtering, its result cap, and index or cursor paging. SCIM servers diverge a lot, so
 * the adapter asks instead of assuming, and takes the answer as a hint: a server without the document
 * is read with {@link DEFAULT_CAPABILITIES}, and a filter it advertises but refuses is degraded
 * (`filter-plan.ts`). Attribute names are read case-insensitively (RFC 7643 §2.1).
 */
import { lowerKeys } from './scim-json.js';

/** The capabilities the adapter uses. */
export interface ScimCapabilities {
  /** Whether the server says it filters (false: every query is matched locally). */
  readonly filter: boolean;
  /** The server's cap on results per request (`filter.maxResults`, `pagination.maxPageSize`). */
  readonly maxResults: number | undefined;
  readonly paging: 'index' | 'cursor';
}

/**
 * RFC 7644 defaults for a server without a readable `/ServiceProviderConfig`: index paging, no cap known,
 * and filters tried (a refusal degrades them).
 */
export const DEFAULT_CAPABILITIES: ScimCapabilities = Object.freeze({
  filter: true,
  maxResults: undefined,
  paging: 'index',
});

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
export function parseServiceProviderConfig(body: unknown): ScimCapabilities {
  const json = lowerKeys(body);
  const filter = objectAt(json, 'filter');
  const pagination = objectAt(json, 'pagination');
  const cursor = pagination?.['cursor'] === true;
  const index = pagination?.['index'] !== false;
  const prefersCursor = String(pagination?.['defaultpaginationmethod']).toLowerCase() === 'cursor';
  const caps = [positive(filter?.['maxresults']), positive(pagination?.['maxpagesize'])].filter(
    (n): n is number => n !== undefined,
  );
  return {
    // Only an explicit `supported: false` is believed without trying; silence is no refusal.
    filter: filter?.['supported'] !== false,
    maxResults: caps.length === 0 ? undefined : Math.min(...caps),
    paging: cursor && (!index || prefersCursor) ? 'cursor' : 'index',
  };
}
