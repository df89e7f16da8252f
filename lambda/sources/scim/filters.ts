/**
 * The federated queries as SCIM filter expressions (RFC 7644 §3.4.2.2), built as a filter AST and
 * serialised by `scim2-parse-filter`, whose compare values are JSON strings: a quote, backslash,
 * parenthesis or operator word inside a query is data, never filter syntax.
 */
import { stringify } from 'scim2-parse-filter';
import type { Filter } from 'scim2-parse-filter';
import type { SourceQuery } from '../../federation/index.js';

/** The attributes a `search_people` text matches: the kernel's local matching reads the same ones. */
export const SEARCH_ATTRIBUTES = ['displayName', 'userName', 'emails.value'] as const;

/** The attributes an exact lookup of a whole email or user name compares (`eq`). */
export const EXACT_ATTRIBUTES = ['userName', 'emails.value'] as const;

/** The full-featured search: the text contained in any of {@link SEARCH_ATTRIBUTES}. */
export function containsFilter(text: string): string {
  const filter: Filter = {
    op: 'or',
    filters: SEARCH_ATTRIBUTES.map((attrPath) => ({ op: 'co' as const, attrPath, compValue: text })),
  };
  return stringify(filter);
}

/** One `eq` filter per attribute of {@link EXACT_ATTRIBUTES}: servers that take `eq` seldom take `or`. */
export function exactFilters(text: string): string[] {
  return EXACT_ATTRIBUTES.map((attrPath) => stringify({ op: 'eq', attrPath, compValue: text }));
}

/** Users changed at or after `since` (an ISO date the caller has checked). */
export function sinceFilter(since: string): string {
  return stringify({
    op: 'ge',
    attrPath: 'meta.lastModified',
    compValue: new Date(Date.parse(since)).toISOString(),
  });
}

/**
 * Whether a search text is a whole email address, which an exact lookup answers as the full search
 * would (an address is seldom part of a longer one): one token with one `@` and a dot after it.
 */
export function isWholeEmail(text: string): boolean {
  return /^[^\s@"]+@[^\s@"]+\.[^\s@"]+$/.test(text);
}

/** The full-featured server's `filter` for `query`, or undefined when it reads every user. */
export function scimFilterFor(query: SourceQuery): string | undefined {
  switch (query.operation) {
    case 'search_people': {
      const text = query.query.trim();
      return text === '' ? undefined : containsFilter(text);
    }
    case 'list_people':
      return query.updated_since === undefined || Number.isNaN(Date.parse(query.updated_since))
        ? undefined
        : sinceFilter(query.updated_since);
    case 'get_person':
      // A record_ref digests a cross-source cluster's key: every user is a candidate (docs/federation.md).
      return undefined;
  }
}
