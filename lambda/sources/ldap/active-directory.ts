/**
 * What Active Directory stores differently from an RFC 4519 directory: the binary `objectGUID`, the
 * `userAccountControl` flags, and how a domain controller says it is one (rootDSE). Pure functions,
 * unit-tested on known bytes.
 */
import { Control } from 'ldapts';

/** `supportedCapabilities` value LDAP_CAP_ACTIVE_DIRECTORY_OID ([MS-ADTS] 3.1.1.3.4.3.1). */
export const AD_CAPABILITY_OID = '1.2.840.113556.1.4.800';

/** userAccountControl ACCOUNTDISABLE ([MS-ADTS] 2.2.16). */
const ACCOUNTDISABLE = 0x2;

/**
 * The canonical string of a 16-byte GUID. AD stores it as Windows lays out a GUID in memory: the first
 * three groups (Data1 uint32, Data2 and Data3 uint16) little-endian, the last eight bytes as they are. So
 * bytes `33 22 11 00 55 44 77 66 88 99 …` read `00112233-4455-6677-8899-…`, the form AD tools print.
 * Undefined for anything that is not 16 bytes.
 */
export function guidString(bytes: Uint8Array): string | undefined {
  if (bytes.length !== 16) return undefined;
  const hex = (from: number, to: number, reverse: boolean) => {
    const part = Array.from(bytes.subarray(from, to));
    return (reverse ? part.reverse() : part).map((b) => b.toString(16).padStart(2, '0')).join('');
  };
  return [hex(0, 4, true), hex(4, 6, true), hex(6, 8, true), hex(8, 10, false), hex(10, 16, false)].join('-');
}

/**
 * The lifecycle of an account from its `userAccountControl` (a decimal 32-bit flag set): ACCOUNTDISABLE
 * means `inactive` (the word the Entra adapter uses for `accountEnabled: false`), otherwise `active`;
 * null when the value is missing or not a number.
 */
export function lifecycleOfUserAccountControl(value: string | undefined): 'active' | 'inactive' | null {
  if (value === undefined || !/^-?\d{1,10}$/.test(value.trim())) return null;
  // The attribute is a signed 32-bit integer: read it as flags.
  const flags = Number(value.trim()) | 0;
  return (flags & ACCOUNTDISABLE) !== 0 ? 'inactive' : 'active';
}

/** Whether a rootDSE's `supportedCapabilities` (or a `forestFunctionality` value) names a domain controller. */
export function isActiveDirectoryRootDse(entry: Readonly<Record<string, unknown>>): boolean {
  const values = (name: string): unknown[] => {
    const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
    const value = key === undefined ? undefined : entry[key];
    return Array.isArray(value) ? value : value === undefined ? [] : [value];
  };
  return (
    values('supportedCapabilities').includes(AD_CAPABILITY_OID) || values('forestFunctionality').length > 0
  );
}

/**
 * LDAP_SERVER_DOMAIN_SCOPE_OID ([MS-ADTS] 3.1.1.3.4.1.8): the DC answers from its own domain and
 * generates no continuation references or referrals, which this adapter would not follow anyway.
 * Not critical: a server that does not know it simply ignores it.
 */
export class DomainScopeControl extends Control {
  static readonly type = '1.2.840.113556.1.4.1339';
  constructor() {
    super(DomainScopeControl.type, { critical: false });
  }
}

/**
 * LDAP_SERVER_SHOW_DELETED_OID ([MS-ADTS] 3.1.1.3.4.1.14): tombstones and deleted objects become visible to
 * the search. Sent with no value, as the specification says. Critical: a server that does not know it must
 * refuse the search rather than answer as if nothing had been deleted.
 */
export class ShowDeletedControl extends Control {
  static readonly type = '1.2.840.113556.1.4.417';
  constructor() {
    super(ShowDeletedControl.type, { critical: true });
  }
}

/**
 * The well-known GUID of a naming context's Deleted Objects container (GUID_DELETED_OBJECTS_CONTAINER_W in
 * ntdsapi.h), as a `<WKGUID=…,nc>` search base: the container's name is never guessed.
 */
export const DELETED_OBJECTS_WKGUID = '18e2ea80684f11d2b9aa00c04f79f805';
