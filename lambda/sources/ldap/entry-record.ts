/**
 * One LDAP entry as a federated raw record. Its DN must lie under the configured base DN (an alias or a
 * misconfigured server can return entries from elsewhere): otherwise the source fails with
 * `source_identity_mismatch`. An entry without the external-id attribute is malformed: skipped, counted.
 * What each field comes from is the directory profile's (`profiles.ts`).
 */
import type { Entry } from 'ldapts';
import type { RawRecord, SourceRef } from '../../federation/index.js';
import { ProviderError } from '../kernel/index.js';
import type { ItemOutcome } from '../kernel/index.js';
import { isUnderBase } from './dn.js';
import { isoOfGeneralizedTime } from './generalized-time.js';
import { LDAP_PROFILES } from './profiles.js';
import type { LdapAttributeMap } from './attribute-maps.js';
import type { LdapProfile } from './profiles.js';

const MALFORMED = { skip: 'malformed_record' } as const;
const CAPABILITIES: readonly string[] = Object.freeze(['read']);

/**
 * The first value of `name` as text (attribute names compare case-insensitively); a binary attribute of
 * the profile through its text form. A tombstone's id is read the same way, so it names the same record.
 */
export function entryValue(entry: Entry, name: string, profile: LdapProfile): string | undefined {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const one = Array.isArray(value) ? value[0] : value;
  if (Buffer.isBuffer(one)) {
    const binary = Object.entries(profile.binary).find(([n]) => n.toLowerCase() === name.toLowerCase());
    return binary?.[1](one);
  }
  return typeof one === 'string' && one !== '' ? one : undefined;
}

/** Maps entries of one source, checking each DN against `baseDn`. */
export function ldapEntryMapper(
  source: SourceRef,
  baseDn: string,
  map: LdapAttributeMap,
  readAt: string,
  profile: LdapProfile = LDAP_PROFILES.standard,
): (item: unknown) => ItemOutcome {
  return (item) => {
    const entry = item as Entry;
    if (typeof entry?.dn !== 'string') return MALFORMED;
    if (!isUnderBase(entry.dn, baseDn))
      throw new ProviderError('source_identity_mismatch', 'identity_mismatch');
    const value = (name: string) => entryValue(entry, name, profile);
    const id = value(map.external_id);
    if (id === undefined) return MALFORMED;
    const attributes: Record<string, unknown> = {};
    for (const name of map.extra) {
      const extra = value(name);
      if (extra !== undefined) attributes[name.toLowerCase()] = extra;
    }
    const phone =
      value(map.phone) ?? (profile.phoneFallback === undefined ? undefined : value(profile.phoneFallback));
    const record: RawRecord = {
      source_type: source.source_type,
      source_identity: source.source_identity,
      external_id: id,
      record_type: 'person',
      observed_at: isoOfGeneralizedTime(value(profile.changed)) ?? readAt,
      capabilities: CAPABILITIES,
      version: value(profile.version) ?? null,
      display_name: value(map.display_name) ?? null,
      email: value(map.email) ?? null,
      phone: phone ?? null,
      lifecycle: profile.lifecycle?.of(value(profile.lifecycle.attribute)) ?? null,
      attributes,
    };
    return record;
  };
}
