/**
 * The `ldap` kind's search made on mapped records, for a cached read. A live search is a substring filter
 * (`filters.ts`) on the profile's search attributes (`profiles.ts`): the attributes that feed the display name
 * and the email, and under Active Directory the account names ({@link AD_ACCOUNT_NAMES}) as well, which the
 * default mapping keeps among a record's attributes under their lower-cased names. A record carries no profile,
 * so the account names are compared wherever a record has them. The comparison is the platform's containment
 * (Unicode-normalised, caseless), as a directory's case-ignoring substring match is. Light: no LDAP client here.
 */
import type { RawRecord, SourceQuery } from '../../federation/index.js';
import { anyContains, foldForMatch } from '../kernel/local-match.js';
import type { RecordMatch } from '../kernel/local-match.js';
import { AD_ACCOUNT_NAMES } from './attribute-maps.js';

/** What a live search compares, as the mapped record holds it. */
function searchedText(record: RawRecord): unknown[] {
  return [
    record.display_name,
    record.email,
    ...AD_ACCOUNT_NAMES.map((name) => record.attributes?.[name.toLowerCase()]),
  ];
}

/** The match of a non-empty `search_people` on mapped records, else undefined (the kernel's matcher). */
export function ldapRecordMatch(query: SourceQuery): RecordMatch | undefined {
  if (query.operation !== 'search_people') return undefined;
  const needle = foldForMatch(query.query.trim());
  if (needle === '') return undefined;
  return (record) =>
    anyContains(
      needle,
      searchedText(record).filter((value): value is string => typeof value === 'string'),
    );
}
