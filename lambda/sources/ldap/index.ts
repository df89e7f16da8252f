/** The `ldap` adapter kind: paged LDAP search through the provider kernel (docs/sources.md). */
export { isUnderBase, normalDn } from './dn.js';
export { isoOfGeneralizedTime, ldapEntryMapper } from './entry-record.js';
export { ldapFailure } from './errors.js';
export { generalizedTime, ldapFilterFor } from './filters.js';
export { createLdapSourceFactory } from './factory.js';
export { createLdapSource } from './ldap-source.js';
export { DEFAULT_ATTRIBUTES, LDAP_ADAPTER, ldapOptionsFromSpec } from './options.js';
export type { LdapAttributeMap, LdapSourceOptions } from './options.js';
