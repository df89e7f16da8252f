/**
 * The federated queries as LDAP search filters, built from ldapts filter objects. They are encoded as
 * BER values (RFC 4511 §4.5.1), never as filter strings, so `*`, `(`, `)`, `\` or NUL in a query are
 * matched as characters, exactly what RFC 4515 escaping would achieve for a string filter.
 */
import { AndFilter, GreaterThanEqualsFilter, OrFilter, SubstringFilter } from 'ldapts';
import type { Filter } from 'ldapts';
import type { SourceQuery } from '../../federation/index.js';
import { LDAP_PROFILES } from './profiles.js';
import type { LdapAttributeMap } from './attribute-maps.js';
import type { LdapProfile } from './profiles.js';

/** The search filter of `query` for the people of `objectClass` under the directory's profile. */
export function ldapFilterFor(
  query: SourceQuery,
  objectClass: string,
  map: LdapAttributeMap,
  profile: LdapProfile = LDAP_PROFILES.standard,
): Filter {
  const base = profile.people(objectClass);
  switch (query.operation) {
    case 'search_people': {
      const text = query.query.trim();
      if (text === '') return base;
      const matches = profile
        .searchAttributes(map)
        .map((attribute) => new SubstringFilter({ attribute, any: [text] }));
      return new AndFilter({ filters: [base, new OrFilter({ filters: matches })] });
    }
    case 'list_people': {
      if (query.updated_since === undefined || Number.isNaN(Date.parse(query.updated_since))) return base;
      const since = new GreaterThanEqualsFilter({
        attribute: profile.changed,
        value: profile.changedSince(query.updated_since),
      });
      return new AndFilter({ filters: [base, since] });
    }
    case 'get_person':
      return base; // every entry is a candidate (docs/federation.md)
  }
}
