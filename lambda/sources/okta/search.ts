/**
 * The federated queries as Okta List Users parameters, chosen so that no user is left out (the management
 * API's OpenAPI, `/api/v1/users` `get`):
 *
 * - A list without `search` or `filter` "omits users that have a status of DEPROVISIONED", and `q` omits
 *   them too, matches only first name, last name and email, answers at most `limit` (10 by default) and
 *   "doesn't support pagination". So `q` is never sent, and every read that means "all users" (`list_people`,
 *   `get_person`, an empty search) sends the `filter` `lastUpdated gt "1970-01-01T00:00:00.000Z"`, which
 *   every user meets, DEPROVISIONED ones included; filters read "the most up-to-date data".
 * - `list_people {updated_since}` is the `filter` `lastUpdated ge "…"` (`lastUpdated` is the one property a
 *   filter may compare with `gt`/`ge`).
 * - A search is a `search` expression: a prefix match (`sw`) on first name, last name, email and login;
 *   two words also match first and last name together. Values are double-quoted JSON strings, so a quote,
 *   backslash, parenthesis or `or` inside a query is data, never expression syntax. Search values are
 *   case-insensitive on Okta's side; diacritical marks are significant there.
 */
import type { RawRecord, SourceQuery } from '../../federation/index.js';
import type { RecordMatch } from '../kernel/local-match.js';

/**
 * The profile properties a search compares by prefix, each with the mapped record's field it lands in
 * (`user-record.ts`): the search expression and its twin on mapped records ({@link oktaRecordMatch}) are
 * both built from this table, so they cannot drift apart.
 */
const PREFIXED = {
  'profile.firstName': (record: RawRecord) => record.attributes?.['first_name'],
  'profile.lastName': (record: RawRecord) => record.attributes?.['last_name'],
  'profile.email': (record: RawRecord) => record.email,
  'profile.login': (record: RawRecord) => record.attributes?.['login'],
} as const;
type Prefixed = keyof typeof PREFIXED;

/** A search as alternatives, each a conjunction of `attribute sw value` conditions. */
type Clauses = readonly (readonly (readonly [Prefixed, string])[])[];

/** The filter every user meets, `DEPROVISIONED` ones included. */
export const ALL_USERS_FILTER = 'lastUpdated gt "1970-01-01T00:00:00.000Z"';

/** The List Users parameters of one read: exactly one of them. */
export type OktaListParams = { readonly search: string } | { readonly filter: string };

/** A search expression string value (RFC 8259 string: quotes and backslashes escaped). */
export function searchString(text: string): string {
  return JSON.stringify(text);
}

/** The clauses of a non-empty `search_people`, else undefined. */
function searchClauses(query: SourceQuery): Clauses | undefined {
  if (query.operation !== 'search_people') return undefined;
  const text = query.query.trim();
  if (text === '') return undefined;
  const clauses = (Object.keys(PREFIXED) as Prefixed[]).map((attribute) => [[attribute, text] as const]);
  const words = text.split(/\s+/);
  if (words.length === 2)
    clauses.push([
      ['profile.firstName', words[0]!],
      ['profile.lastName', words[1]!],
    ]);
  return clauses;
}

/** The `search` expression of a non-empty `search_people`, else undefined. */
export function oktaSearchFor(query: SourceQuery): string | undefined {
  return searchClauses(query)
    ?.map((clause) => {
      const terms = clause.map(([attribute, value]) => `${attribute} sw ${searchString(value)}`);
      return terms.length === 1 ? terms[0]! : `(${terms.join(' and ')})`;
    })
    .join(' or ');
}

/**
 * The same match as {@link oktaSearchFor}'s expression, made on mapped records (a cached read selects its
 * baseline and delta records with it), or undefined for a query that is no search. Okta compares search
 * values without regard to case, diacritical marks significant: both sides are lower-cased, compared code
 * point by code point, without Unicode normalisation.
 */
export function oktaRecordMatch(query: SourceQuery): RecordMatch | undefined {
  const clauses = searchClauses(query)?.map((clause) =>
    clause.map(([attribute, value]) => [PREFIXED[attribute], value.toLowerCase()] as const),
  );
  if (clauses === undefined) return undefined;
  return (record) =>
    clauses.some((clause) =>
      clause.every(([field, prefix]) => {
        const value = field(record);
        return typeof value === 'string' && value.toLowerCase().startsWith(prefix);
      }),
    );
}

/** The parameters that answer `query` (see the module comment). */
export function oktaParamsFor(query: SourceQuery): OktaListParams {
  const search = oktaSearchFor(query);
  if (search !== undefined) return { search };
  if (query.operation === 'list_people' && query.updated_since !== undefined) {
    const since = Date.parse(query.updated_since);
    if (!Number.isNaN(since))
      return { filter: `lastUpdated ge ${searchString(new Date(since).toISOString())}` };
  }
  // get_person: a record_ref digests a cross-source cluster's key, so every user is a candidate
  // (docs/federation.md).
  return { filter: ALL_USERS_FILTER };
}
