/**
 * The `ldap` kind's search made on mapped records, for a cached read. A live search is a substring filter
 * (`filters.ts`) on the profile's search attributes (`profiles.ts`): the attributes that feed the display name
 * and the email, and under Active Directory the account names ({@link AD_ACCOUNT_NAMES}) as well, which the
 * default mapping keeps among a record's attributes under their lower-cased names. Light: no LDAP client here.
 *
 * A record carries no profile; one that holds an account name was read from Active Directory, which compares
 * without regard to case but without Unicode normalisation (a Samba DC finds `Zoe\u0308` for `ZOE\u0308` and
 * `zoe`, not for a composed `zoë`): such a record is compared that way, lower-cased code point by code point.
 * Any other is compared with the platform's matching (Unicode-normalised, caseless), as OpenLDAP's
 * case-ignoring substring match normalises both sides.
 */
import type { RawRecord, SourceQuery } from '../../federation/index.js';
import { anyContains, foldForMatch } from '../kernel/local-match.js';
import type { RecordMatch } from '../kernel/local-match.js';
import { AD_ACCOUNT_NAMES } from './attribute-maps.js';

const text = (value: unknown): value is string => typeof value === 'string';

/** The match of a non-empty `search_people` on mapped records, else undefined (the kernel's matcher). */
export function ldapRecordMatch(query: SourceQuery): RecordMatch | undefined {
  if (query.operation !== 'search_people') return undefined;
  const trimmed = query.query.trim();
  if (trimmed === '') return undefined;
  const folded = foldForMatch(trimmed);
  const lowered = trimmed.toLowerCase();
  return (record: RawRecord) => {
    const accounts = AD_ACCOUNT_NAMES.map((name) => record.attributes?.[name.toLowerCase()]).filter(text);
    const values = [record.display_name, record.email].filter(text);
    if (accounts.length === 0) return anyContains(folded, values);
    return [...values, ...accounts].some((value) => value.toLowerCase().includes(lowered));
  };
}
