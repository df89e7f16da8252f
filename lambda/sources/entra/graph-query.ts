/**
 * The federated queries as Graph `/users` requests (learn.microsoft.com/graph/filter-query-parameter):
 * `startswith` on displayName, mail and userPrincipalName for a search, with the text as an OData string
 * literal (a single quote doubled, so a quote, parenthesis or `or` inside a query is data, never syntax).
 * A search for a mail domain (`@example.com`) uses `endswith(mail,…)`, an advanced query that Graph only
 * answers with `ConsistencyLevel: eventual` and `$count=true` (…/graph/aad-advanced-queries).
 *
 * Each search also carries the same match made on mapped records ({@link GraphRequest.local}), built from
 * the same table of properties, so the filter and its local twin cannot drift apart. Graph compares these
 * properties without regard to case and without Unicode normalisation: the twin lower-cases both sides and
 * compares code points, so `ZOË` finds `Zoë` and `zoe` does not.
 */
import type { RawRecord, SourceQuery } from '../../federation/index.js';
import type { RecordMatch } from '../kernel/local-match.js';

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
   * The same match made on mapped records (every non-empty search has one): what a tenant that offers no
   * advanced queries (Azure AD B2C) gets for an advanced one, by listing every user and keeping those this
   * accepts, and what a cached read of the source selects its baseline and delta records with.
   */
  readonly local?: RecordMatch;
}

/** The properties a search compares by prefix, each with the mapped record's field it lands in. */
const PREFIX_PROPERTIES: readonly (readonly [string, (record: RawRecord) => unknown])[] = [
  ['displayName', (record) => record.display_name],
  ['mail', (record) => record.email],
  ['userPrincipalName', (record) => record.attributes?.['user_principal_name']],
];

/** Graph's caseless comparison of one property value (see the module comment). */
const lowered = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.toLowerCase() : undefined;

/** An OData string literal. */
export function odataString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The `$filter` (and whether it is an advanced query) for `query`. */
export function graphRequestFor(query: SourceQuery): GraphRequest {
  if (query.operation !== 'search_people') return { filter: undefined, advanced: false };
  const text = query.query.trim();
  if (text === '') return { filter: undefined, advanced: false };
  const needle = text.toLowerCase();
  if (/^@[^\s@]+$/.test(text)) {
    return {
      filter: `endswith(mail,${odataString(text)})`,
      advanced: true,
      local: (record) => lowered(record.email)?.endsWith(needle) === true,
    };
  }
  const literal = odataString(text);
  const filter = PREFIX_PROPERTIES.map(([property]) => `startswith(${property},${literal})`).join(' or ');
  return {
    filter,
    advanced: false,
    local: (record) =>
      PREFIX_PROPERTIES.some(([, field]) => lowered(field(record))?.startsWith(needle) === true),
  };
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
