/**
 * The local directory's configuration and content: a `slapd.conf` for one `back_mdb` database with a
 * read-only service account limited as providers.md §1.5 measured (unpaged searches stop at 50 entries,
 * paged pages at most 100), and the seeded people as `inetOrgPerson` LDIF for `slapadd`.
 */
import type { ProviderPerson } from '../population.js';

/** The suffix and the entries the tests and the demo use. */
export const LDAP_SUFFIX = 'dc=acme,dc=test';
export const LDAP_PEOPLE_DN = `ou=people,${LDAP_SUFFIX}`;
export const LDAP_READER_DN = `cn=reader,ou=system,${LDAP_SUFFIX}`;
/** A subtree beside the people: its entries are outside the base DN the demo source is authorized for. */
export const LDAP_CONTRACTORS_DN = `ou=contractors,${LDAP_SUFFIX}`;
/**
 * A virtual naming context configured as an old-style suffix alias of the contractors subtree
 * (slapd-relay(5), "mapping the virtual to the real naming context, but not the results back"): a search
 * under it is answered with entries named under {@link LDAP_CONTRACTORS_DN}, outside the searched base.
 */
export const LDAP_PARTNERS_DN = `ou=partners,${LDAP_SUFFIX}`;
/** The LDAP result code an entry marked busy (`errAuxObject`, slapo-retcode) turns a search into. */
export const LDAP_BUSY = 51;

/** `slapd.conf` for a database under `dir`. */
export function slapdConfig(dir: string, rootPassword: string): string {
  return `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload back_relay
moduleload rwm
moduleload retcode
# The partners context: requests are rewritten into the contractors subtree, result DNs are not rewritten
# back (the suffixalias arrangement of slapd-relay(5)). Defined before the database it lies under.
database relay
suffix "${LDAP_PARTNERS_DN}"
relay "${LDAP_CONTRACTORS_DN}"
overlay rwm
rwm-rewriteEngine on
rwm-rewriteContext default
rwm-rewriteRule "${LDAP_PARTNERS_DN}" "${LDAP_CONTRACTORS_DN}" ":@"
rwm-rewriteContext searchFilter
rwm-rewriteContext searchEntryDN
rwm-rewriteContext searchAttrDN
rwm-rewriteContext matchedDN
access to * by dn.exact="${LDAP_READER_DN}" read by * none
database mdb
maxsize 268435456
suffix "${LDAP_SUFFIX}"
rootdn "cn=admin,${LDAP_SUFFIX}"
rootpw ${rootPassword}
directory ${dir}/data
index objectClass eq
index cn,mail,uid eq,sub
# Simple bind needs anonymous auth access to userPassword; nothing else is readable without a bind.
access to attrs=userPassword by anonymous auth by * none
access to * by dn.exact="${LDAP_READER_DN}" read by * none
limits dn.exact="${LDAP_READER_DN}" size.soft=50 size.hard=50 size.pr=100 size.prtotal=unlimited
# An entry the administrator marks with errAuxObject is answered, when a search returns it, with the
# result code it carries instead (slapo-retcode(5)): how the local directory is made to answer 51 busy.
overlay retcode
# Its generated-entry subtree (by default the whole suffix, which would answer every bind) is kept empty.
retcode-parent "ou=retcodes,${LDAP_SUFFIX}"
retcode-indir
`;
}

/** One LDIF line, base64 (`::`) when the value is not plain ASCII (RFC 2849 SAFE-STRING). */
function line(name: string, value: string): string {
  return /^[\x21-\x39\x3b\x3d-\x7e][\x20-\x7e]*$/.test(value) && !value.endsWith(' ')
    ? `${name}: ${value}`
    : `${name}:: ${Buffer.from(value, 'utf8').toString('base64')}`;
}

function person(dn: string, p: ProviderPerson): string {
  return [
    line('dn', dn),
    'objectClass: inetOrgPerson',
    line('uid', p.id),
    line('cn', p.displayName),
    line('givenName', p.givenName),
    line('sn', p.familyName),
    line('displayName', p.displayName),
    line('mail', p.email),
    line('telephoneNumber', p.phone),
    line('title', p.title),
    line('ou', p.department),
    line('employeeNumber', p.id.slice(1)),
    // slapadd keeps operational timestamps given in the LDIF: the seeded change time, not the load time.
    `modifyTimestamp: ${p.lastModified.replace(/[-:T]/g, '').slice(0, 14)}Z`,
    '',
  ].join('\n');
}

/** The whole directory: structure, the reader account, the people, and one person outside their subtree. */
export function directoryLdif(
  people: readonly ProviderPerson[],
  readerPassword: string,
  contractor: ProviderPerson,
): string {
  const entries = [
    `dn: ${LDAP_SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: acme\no: Acme Corp\n`,
    `dn: ou=system,${LDAP_SUFFIX}\nobjectClass: organizationalUnit\nou: system\n`,
    `dn: ${LDAP_READER_DN}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: reader\n${line('userPassword', readerPassword)}\n`,
    `dn: ${LDAP_PEOPLE_DN}\nobjectClass: organizationalUnit\nou: people\n`,
    `dn: ${LDAP_CONTRACTORS_DN}\nobjectClass: organizationalUnit\nou: contractors\n`,
    person(`uid=${contractor.id},${LDAP_CONTRACTORS_DN}`, contractor),
    ...people.map((p) => person(`uid=${p.id},${LDAP_PEOPLE_DN}`, p)),
  ];
  return entries.join('\n');
}
