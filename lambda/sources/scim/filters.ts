/**
 * The federated queries as SCIM filter expressions (RFC 7644 §3.4.2.2), built as a filter AST and
 * serialised by `scim2-parse-filter`, whose compare values are JSON strings: a quote, backslash,
 * parenthesis or operator word inside a query is data, never filter syntax.
 */
import { stringify } from 'scim2-parse-filter';
import type { Filter } from 'scim2-parse-filter';
import type { SourceQuery } from '../../federation/index.js';

/** The attributes a `search_people` text matches (as the fixtures do: name or email). */
export const SEARCH_ATTRIBUTES = ['displayName', 'userName', 'emails.value'] as const;

/** The `filter` query parameter for `query`, or undefined when it reads every user. */
export function scimFilterFor(query: SourceQuery): string | undefined {
  switch (query.operation) {
    case 'search_people': {
      const text = query.query.trim();
      if (text === '') return undefined;
      const filter: Filter = {
        op: 'or',
        filters: SEARCH_ATTRIBUTES.map((attrPath) => ({ op: 'co' as const, attrPath, compValue: text })),
      };
      return stringify(filter);
    }
    case 'list_people': {
      if (query.updated_since === undefined || Number.isNaN(Date.parse(query.updated_since)))
        return undefined;
      const since = new Date(Date.parse(query.updated_since)).toISOString();
      return stringify({ op: 'ge', attrPath: 'meta.lastModified', compValue: since });
    }
    case 'get_person':
      // A record_ref digests a cross-source cluster's key: every user is a candidate (docs/federation.md).
      return undefined;
  }
}
