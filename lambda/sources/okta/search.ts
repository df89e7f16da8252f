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
import type { SourceQuery } from '../../federation/index.js';

const PREFIXED = ['profile.firstName', 'profile.lastName', 'profile.email', 'profile.login'] as const;

/** The filter every user meets, `DEPROVISIONED` ones included. */
export const ALL_USERS_FILTER = 'lastUpdated gt "1970-01-01T00:00:00.000Z"';

/** The List Users parameters of one read: exactly one of them. */
export type OktaListParams = { readonly search: string } | { readonly filter: string };

/** A search expression string value (RFC 8259 string: quotes and backslashes escaped). */
export function searchString(text: string): string {
  return JSON.stringify(text);
}

/** The `search` expression of a non-empty `search_people`, else undefined. */
export function oktaSearchFor(query: SourceQuery): string | undefined {
  if (query.operation !== 'search_people') return undefined;
  const text = query.query.trim();
  if (text === '') return undefined;
  const terms = PREFIXED.map((attribute) => `${attribute} sw ${searchString(text)}`);
  const words = text.split(/\s+/);
  if (words.length === 2)
    terms.push(
      `(profile.firstName sw ${searchString(words[0]!)} and profile.lastName sw ${searchString(words[1]!)})`,
    );
  return terms.join(' or ');
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
