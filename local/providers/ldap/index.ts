/** The local OpenLDAP directory (Debian slapd) and its relay. */
export { setEntryBusy } from './busy.js';
export type { DirectoryAdmin } from './busy.js';
export {
  LDAP_BUSY,
  LDAP_CONTRACTORS_DN,
  LDAP_PARTNERS_DN,
  LDAP_PEOPLE_DN,
  LDAP_READER_DN,
  LDAP_SUFFIX,
} from './ldif.js';
export { startRelay } from './relay.js';
export type { LdapRelay, RelayBehaviour } from './relay.js';
export { slapdPath, startSlapd } from './slapd.js';
export type { LocalSlapd, SlapdOptions } from './slapd.js';
