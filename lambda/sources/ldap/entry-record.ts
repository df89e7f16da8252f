/**
 * One LDAP entry as a federated raw record. Its DN must lie under the configured base DN (an alias or a
 * misconfigured server can return entries from elsewhere): otherwise the source fails with
 * `source_identity_mismatch`. An entry without the external-id attribute is malformed: skipped, counted.
 */
import type { Entry } from 'ldapts';
import type { RawRecord, SourceRef } from '../../federation/index.js';
import { ProviderError } from '../kernel/index.js';
import type { ItemOutcome } from '../kernel/index.js';
import { isUnderBase } from './dn.js';
import type { LdapAttributeMap } from './options.js';

const MALFORMED = { skip: 'malformed_record' } as const;
const CAPABILITIES: readonly string[] = Object.freeze(['read']);

/** The first string value of `name` (attribute names compare case-insensitively). */
function first(entry: Entry, name: string): string | undefined {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' && one !== '' ? one : undefined;
}

/** `20261008120000Z` (or with fractions / offset-free) → ISO 8601, else undefined. */
export function isoOfGeneralizedTime(value: string | undefined): string | undefined {
  const m =
    value === undefined ? null : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.\d+)?Z$/.exec(value);
  return m === null ? undefined : `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
}

/** Maps entries of one source, checking each DN against `baseDn`. */
export function ldapEntryMapper(
  source: SourceRef,
  baseDn: string,
  map: LdapAttributeMap,
  readAt: string,
): (item: unknown) => ItemOutcome {
  return (item) => {
    const entry = item as Entry;
    if (typeof entry?.dn !== 'string') return MALFORMED;
    if (!isUnderBase(entry.dn, baseDn))
      throw new ProviderError('source_identity_mismatch', 'identity_mismatch');
    const id = first(entry, map.external_id);
    if (id === undefined) return MALFORMED;
    const attributes: Record<string, unknown> = {};
    for (const name of map.extra) {
      const value = first(entry, name);
      if (value !== undefined) attributes[name.toLowerCase()] = value;
    }
    const record: RawRecord = {
      source_type: source.source_type,
      source_identity: source.source_identity,
      external_id: id,
      record_type: 'person',
      observed_at: isoOfGeneralizedTime(first(entry, 'modifyTimestamp')) ?? readAt,
      capabilities: CAPABILITIES,
      version: first(entry, 'entryCSN') ?? null,
      display_name: first(entry, map.display_name) ?? null,
      email: first(entry, map.email) ?? null,
      phone: first(entry, map.phone) ?? null,
      lifecycle: null,
      attributes,
    };
    return record;
  };
}
