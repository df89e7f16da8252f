/**
 * The local Active Directory's people: the seeded population (plus a few unusual names) as AD user
 * objects under one OU, written over LDAPS by the domain administrator. Passwords travel only over TLS
 * (AD refuses `unicodePwd` otherwise); about one in ten people is a disabled account (UAC 514).
 */
import { Attribute } from 'ldapts';
import type { Client } from 'ldapts';
import type { ProviderPerson } from '../population.js';

/** The domain the local DC serves, and where its people live. */
export const AD_REALM = 'ACME.TEST';
export const AD_DOMAIN_DN = 'DC=acme,DC=test';
export const AD_PEOPLE_DN = `OU=People,${AD_DOMAIN_DN}`;
export const AD_READER_DN = `CN=bos-reader,CN=Users,${AD_DOMAIN_DN}`;
/** userAccountControl of an ordinary account (NORMAL_ACCOUNT) and of a disabled one (| ACCOUNTDISABLE). */
export const UAC_NORMAL = 512;
export const UAC_DISABLED = 514;

/**
 * People with non-ASCII names (composed and decomposed forms, a non-Latin script) and one whose name
 * carries LDAP and SCIM filter syntax.
 */
export const UNUSUAL_PEOPLE: readonly ProviderPerson[] = [
  ['u900001', 'Renée', 'Ångström', 'renee.angstrom.900001@example.com'],
  ['u900002', 'Zoe\u0308', 'C\u0327elik', 'zoe.celik.900002@example.com'],
  ['u900003', '雷', '李', 'lei.li.900003@example.com'],
  ['u900004', 'Zed', 'O\'Hara (x*y) "Q" back\\slash', 'zed.ohara.900004@example.com'],
].map(([id, givenName, familyName, email]) => ({
  id: id ?? '',
  userName: email ?? '',
  givenName: givenName ?? '',
  familyName: familyName ?? '',
  displayName: `${givenName} ${familyName}`,
  email: email ?? '',
  phone: `+1555${(id ?? '').slice(1)}0`,
  title: 'Engineer',
  department: 'Engineering',
  active: true,
  lastModified: '2026-10-01T00:00:00Z',
}));

/** The `sAMAccountName` and `userPrincipalName` the local DC gives a person. */
export function accountNames(person: ProviderPerson): { sam: string; upn: string } {
  return { sam: person.id, upn: `${person.id}@${AD_REALM.toLowerCase()}` };
}

/** AD's password encoding: the quoted password in UTF-16LE. */
function unicodePwd(password: string): Buffer {
  return Buffer.from(`"${password}"`, 'utf16le');
}

/** An entry's attributes (a Buffer value stays binary). */
function entry(values: Record<string, string | readonly string[] | Buffer>): Attribute[] {
  return Object.entries(values).map(([type, value]) =>
    Buffer.isBuffer(value)
      ? new Attribute({ type, values: [value] })
      : new Attribute({ type, values: typeof value === 'string' ? [value] : [...value] }),
  );
}

/** Adds the OU, the read-only service account and every person. */
export async function seedDirectory(
  client: Client,
  people: readonly ProviderPerson[],
  passwords: { reader: string; people: string },
): Promise<void> {
  await client.add(AD_PEOPLE_DN, entry({ objectClass: ['top', 'organizationalUnit'], ou: 'People' }));
  await client.add(
    AD_READER_DN,
    entry({
      objectClass: ['top', 'person', 'organizationalPerson', 'user'],
      sAMAccountName: 'bos-reader',
      userPrincipalName: `bos-reader@${AD_REALM.toLowerCase()}`,
      unicodePwd: unicodePwd(passwords.reader),
      userAccountControl: String(UAC_NORMAL),
    }),
  );
  for (const person of people) {
    const { sam, upn } = accountNames(person);
    await client.add(
      `CN=${person.id},${AD_PEOPLE_DN}`,
      entry({
        objectClass: ['top', 'person', 'organizationalPerson', 'user'],
        sAMAccountName: sam,
        userPrincipalName: upn,
        givenName: person.givenName,
        sn: person.familyName,
        displayName: person.displayName,
        mail: person.email,
        telephoneNumber: person.phone,
        title: person.title,
        department: person.department,
        unicodePwd: unicodePwd(passwords.people),
        userAccountControl: String(person.active ? UAC_NORMAL : UAC_DISABLED),
      }),
    );
  }
}
