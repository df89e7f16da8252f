/**
 * The directory profiles an `ldap` source reads with, in one table: which attributes feed a record,
 * which entries are people, what a search matches, how changes are detected, which attributes are
 * binary, and which controls every search carries. `standard` is an RFC 4519 directory (OpenLDAP's
 * `inetOrgPerson`); `active-directory` is a Windows or Samba domain controller.
 */
import { AndFilter, EqualityFilter } from 'ldapts';
import type { Control, Filter } from 'ldapts';
import { generalizedTime } from './generalized-time.js';
import { DomainScopeControl, guidString, lifecycleOfUserAccountControl } from './active-directory.js';
import { AD_ACCOUNT_NAMES, PROFILE_ATTRIBUTES } from './attribute-maps.js';
import type { LdapAttributeMap, LdapProfileName } from './attribute-maps.js';

/** How one kind of directory is read. */
export interface LdapProfile {
  readonly attributes: LdapAttributeMap;
  /** The object class a definition may override, and the filter that selects people with it. */
  readonly objectClass: string;
  readonly people: (objectClass: string) => Filter;
  /** Attributes a `search_people` text is matched against (substring, any of them). */
  readonly searchAttributes: (map: LdapAttributeMap) => readonly string[];
  /** Generalized-time attribute for `observed_at` and `updated_since`. */
  readonly changed: string;
  /** The `changed >= value` assertion value of an ISO instant. */
  readonly changedSince: (iso: string) => string;
  /** Attribute for the record's `version`. */
  readonly version: string;
  /** Attributes read as bytes (schema spelling), with their text form (undefined = malformed). */
  readonly binary: Readonly<Record<string, (bytes: Uint8Array) => string | undefined>>;
  /** A second phone attribute used when the mapped one is absent. */
  readonly phoneFallback?: string;
  /** The attribute the lifecycle comes from, and how. */
  readonly lifecycle?: {
    readonly attribute: string;
    readonly of: (value: string | undefined) => string | null;
  };
  readonly controls: () => Control[];
}

const eq = (attribute: string, value: string) => new EqualityFilter({ attribute, value });

export const LDAP_PROFILES: Readonly<Record<LdapProfileName, LdapProfile>> = {
  standard: {
    attributes: PROFILE_ATTRIBUTES.standard,
    objectClass: 'inetOrgPerson',
    people: (objectClass) => eq('objectClass', objectClass),
    searchAttributes: (map) => [map.display_name, map.email],
    changed: 'modifyTimestamp',
    changedSince: (iso) => generalizedTime(iso),
    version: 'entryCSN',
    binary: {},
    controls: () => [],
  },
  'active-directory': {
    attributes: PROFILE_ATTRIBUTES['active-directory'],
    // objectClass=user alone also selects computer accounts (computer is a subclass of user).
    objectClass: 'user',
    people: (objectClass) =>
      new AndFilter({ filters: [eq('objectCategory', 'person'), eq('objectClass', objectClass)] }),
    searchAttributes: (map) => [map.display_name, map.email, ...AD_ACCOUNT_NAMES],
    changed: 'whenChanged',
    // AD's own form, with a fraction: Samba compares `…SSZ` wrongly (it matched every entry), `…SS.0Z` right.
    changedSince: (iso) => generalizedTime(iso, true),
    version: 'uSNChanged',
    binary: { objectGUID: guidString },
    phoneFallback: 'mobile',
    lifecycle: { attribute: 'userAccountControl', of: lifecycleOfUserAccountControl },
    controls: () => [new DomainScopeControl()],
  },
};

/** The attributes a search under `profile` asks for. */
export function requestedAttributes(profile: LdapProfile, map: LdapAttributeMap): string[] {
  return [
    ...new Set([
      map.external_id,
      map.display_name,
      map.email,
      map.phone,
      ...map.extra,
      profile.changed,
      profile.version,
      ...(profile.phoneFallback === undefined ? [] : [profile.phoneFallback]),
      ...(profile.lifecycle === undefined ? [] : [profile.lifecycle.attribute]),
    ]),
  ];
}

/**
 * The binary attributes to read as bytes. ldapts matches these names case-sensitively, so the schema's
 * spelling goes with the definition's (an `external_id` written `objectguid`).
 */
export function binaryNames(profile: LdapProfile, map: LdapAttributeMap): string[] {
  const names = Object.keys(profile.binary);
  const own = names.some((name) => name.toLowerCase() === map.external_id.toLowerCase());
  return own ? [...names, map.external_id] : names;
}
