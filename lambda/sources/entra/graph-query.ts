/**
 * The federated queries as Graph `/users` requests (learn.microsoft.com/graph/filter-query-parameter):
 * `startswith` on displayName, mail and userPrincipalName for a search, with the text as an OData string
 * literal (a single quote doubled, so a quote, parenthesis or `or` inside a query is data, never syntax).
 * A search for a mail domain (`@example.com`) uses `endswith(mail,…)`, an advanced query that Graph only
 * answers with `ConsistencyLevel: eventual` and `$count=true` (…/graph/aad-advanced-queries).
 */
import type { RawRecord, SourceQuery } from '../../federation/index.js';

/** Properties read from Graph for each user. */
export const GRAPH_SELECT = [
  'id',
  'displayName',
  'givenName',
  'surname',
  'mail',
  'userPrincipalName',
  'mobilePhone',
  'businessPhones',
  'accountEnabled',
  'jobTitle',
  'department',
] as const;

/** What one read asks Graph. */
export interface GraphRequest {
  readonly filter: string | undefined;
  /** The query needs `ConsistencyLevel: eventual` + `$count=true`. */
  readonly advanced: boolean;
  /**
   * The same match made on mapped records, for a tenant that offers no advanced queries (Azure AD B2C): the
   * adapter then lists every user and keeps those this accepts. Only advanced queries have one.
   */
  readonly local?: (record: RawRecord) => boolean;
}

/** An OData string literal. */
export function odataString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The `$filter` (and whether it is an advanced query) for `query`. */
export function graphRequestFor(query: SourceQuery): GraphRequest {
  if (query.operation !== 'search_people') return { filter: undefined, advanced: false };
  const text = query.query.trim();
  if (text === '') return { filter: undefined, advanced: false };
  if (/^@[^\s@]+$/.test(text)) {
    const domain = text.toLowerCase();
    return {
      filter: `endswith(mail,${odataString(text)})`,
      advanced: true,
      // Graph compares mail without regard to case.
      local: (record) => record.email?.toLowerCase().endsWith(domain) === true,
    };
  }
  const literal = odataString(text);
  const filter = ['displayName', 'mail', 'userPrincipalName']
    .map((property) => `startswith(${property},${literal})`)
    .join(' or ');
  return { filter, advanced: false };
}

/** The first page's URL for `request`. */
export function firstGraphPage(graphUrl: URL, request: GraphRequest, top: number): URL {
  const url = new URL(`${graphUrl.href}/users`);
  url.searchParams.set('$select', GRAPH_SELECT.join(','));
  url.searchParams.set('$top', String(top));
  if (request.filter !== undefined) url.searchParams.set('$filter', request.filter);
  if (request.advanced) url.searchParams.set('$count', 'true');
  return url;
}
