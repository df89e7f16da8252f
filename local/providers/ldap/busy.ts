/**
 * The local directory's "busy" switch, done the way its administrator would: an LDAP modify (as the
 * root DN) that gives one entry the `errAuxObject` class of slapo-retcode with `errCode` 51. From then on
 * slapd answers any search that reaches that entry with result 51 busy instead of the entry (the
 * overlay's in-directory mode, configured in `ldif.ts`); removing the class makes it an ordinary entry
 * again. `errOp: search` keeps the modify that removes it (and binds) unaffected.
 */
import { Attribute, Change, Client, NoSuchAttributeError, TypeOrValueExistsError } from 'ldapts';
import { LDAP_BUSY } from './ldif.js';

/** Who may change the directory, and where. */
export interface DirectoryAdmin {
  readonly url: string;
  readonly rootDn: string;
  readonly rootPassword: string;
}

const BUSY_ATTRIBUTES = [
  new Attribute({ type: 'objectClass', values: ['errAuxObject'] }),
  new Attribute({ type: 'errCode', values: [String(LDAP_BUSY)] }),
  new Attribute({ type: 'errOp', values: ['search'] }),
];

/** Marks `dn` busy (or ordinary again). Marking twice, or unmarking an ordinary entry, changes nothing. */
export async function setEntryBusy(admin: DirectoryAdmin, dn: string, busy: boolean): Promise<void> {
  const client = new Client({ url: admin.url, timeout: 10_000, connectTimeout: 5000 });
  try {
    await client.bind(admin.rootDn, admin.rootPassword);
    await client.modify(
      dn,
      BUSY_ATTRIBUTES.map((modification) => new Change({ operation: busy ? 'add' : 'delete', modification })),
    );
  } catch (error) {
    // Already busy (the class exists) or already ordinary (nothing to delete): the wanted state holds.
    if (!(error instanceof TypeOrValueExistsError || error instanceof NoSuchAttributeError)) throw error;
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
