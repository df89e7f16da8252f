/** The `ldap` adapter kind: paged LDAP search through the provider kernel (docs/sources.md). */
export {
  AD_CAPABILITY_OID,
  guidString,
  isActiveDirectoryRootDse,
  lifecycleOfUserAccountControl,
} from './active-directory.js';
export { isUnderBase, normalDn } from './dn.js';
export { ldapEntryMapper } from './entry-record.js';
export { ldapFailure } from './errors.js';
export { ldapFilterFor } from './filters.js';
export { generalizedTime, isoOfGeneralizedTime } from './generalized-time.js';
export { createLdapSourceFactory } from './factory.js';
export { createLdapSource } from './ldap-source.js';
export { attributeMapFor, DEFAULT_ATTRIBUTES, LDAP_ADAPTER, ldapOptionsFromSpec } from './options.js';
export type { LdapSourceOptions } from './options.js';
export { pagedSearch } from './paged-search.js';
export { LDAP_PROFILE_NAMES, PROFILE_ATTRIBUTES } from './attribute-maps.js';
export type { LdapAttributeMap, LdapProfileName, LdapProfileOption } from './attribute-maps.js';
export { LDAP_PROFILES } from './profiles.js';
export type { LdapProfile } from './profiles.js';
