/**
 * The federated queries as Okta List Users `search` expressions: SCIM-style terms whose values are
 * double-quoted JSON strings, so a quote, backslash, parenthesis or `or` inside a query is data, never
 * expression syntax. A search is a prefix match (`sw`) on first name, last name, email and login; two
 * words also match first and last name together. `updated_since` becomes `lastUpdated ge "…"`.
 */
import type { SourceQuery } from '../../federation/index.js';

const PREFIXED = ['profile.firstName', 'profile.lastName', 'profile.email', 'profile.login'] as const;

/** A search expression string value (RFC 8259 string: quotes and backslashes escaped). */
export function searchString(text: string): string {
  return JSON.stringify(text);
}

/** The `search` parameter for `query`, or undefined when it reads every user. */
export function oktaSearchFor(query: SourceQuery): string | undefined {
  switch (query.operation) {
    case 'search_people': {
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
    case 'list_people': {
      const since = query.updated_since === undefined ? Number.NaN : Date.parse(query.updated_since);
      return Number.isNaN(since)
        ? undefined
        : `lastUpdated ge ${searchString(new Date(since).toISOString())}`;
    }
    case 'get_person':
      // A record_ref digests a cross-source cluster's key: every user is a candidate (docs/federation.md).
      return undefined;
  }
}
