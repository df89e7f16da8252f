/**
 * A read-only account of the local DC that may read tombstones: what an operator sets up for a cached Active
 * Directory source. On Windows a domain administrator takes ownership of the Deleted Objects container and
 * grants the account List Contents and Read Property on it (`dsacls "CN=Deleted Objects,DC=…" /G
 * DOMAIN\account:LCRP`). Samba's `samba-tool dsacl` cannot reach that container (it searches without the Show
 * Deleted control), so the same ACE is added with Samba's own Python library as the DC's system session, on
 * the DC's database, as `samba-tool` does locally. The default reader (`bos-reader`) keeps the default rights:
 * it sees no tombstones.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Attribute, Change, Client } from 'ldapts';
import { sambaCacheDir } from './samba.js';
import type { LocalSambaAd } from './samba.js';

/** Where the account lives (beside the default reader). */
export const AD_TOMBSTONE_READER_DN = 'CN=bos-tombstone-reader,CN=Users,DC=acme,DC=test';

/** The interpreter Samba's own tools run on (`samba-tool`'s first line): it has Samba's Python modules. */
const SAMBA_PYTHON = '/usr/bin/python3';

// Adds `(A;;RPLC;;;<sid>)` to the container's DACL once (the library skips an ACE already there).
const GRANT = `
import os
from samba.auth import system_session
from samba.param import LoadParm
from samba.samdb import SamDB
from samba.sd_utils import SDUtils
lp = LoadParm()
lp.load(os.environ['SMB_CONF'])
db = SamDB(url=lp.private_path('sam.ldb'), session_info=system_session(), lp=lp)
sd = SDUtils(db)
sid = str(sd.get_object_sid(os.environ['TRUSTEE_DN']))
sd.dacl_add_ace('<WKGUID=18e2ea80684f11d2b9aa00c04f79f805,%s>' % db.domain_dn(), '(A;;RPLC;;;%s)' % sid)
`;

const unicodePwd = (password: string) => Buffer.from(`"${password}"`, 'utf16le');

/**
 * Creates the account (or gives it a fresh password), grants it the tombstone read, and returns its bind DN
 * and password. The password travels only over LDAPS, as AD requires.
 */
export async function tombstoneReader(dc: LocalSambaAd): Promise<{ bindDn: string; password: string }> {
  const password = `Aa1-${randomBytes(18).toString('base64url')}`;
  const admin = new Client({
    url: dc.ldapsUrl,
    timeout: 30_000,
    tlsOptions: { ca: dc.caPem, servername: dc.tlsServerName },
  });
  try {
    await admin.bind(dc.adminDn, dc.adminPassword);
    const found = await admin.search(AD_TOMBSTONE_READER_DN, { scope: 'base' }).catch(() => undefined);
    if (found === undefined)
      await admin.add(AD_TOMBSTONE_READER_DN, [
        new Attribute({ type: 'objectClass', values: ['top', 'person', 'organizationalPerson', 'user'] }),
        new Attribute({ type: 'sAMAccountName', values: ['bos-tombstone-reader'] }),
        new Attribute({ type: 'unicodePwd', values: [unicodePwd(password)] }),
        new Attribute({ type: 'userAccountControl', values: ['512'] }),
      ]);
    else
      await admin.modify(AD_TOMBSTONE_READER_DN, [
        new Change({
          operation: 'replace',
          modification: new Attribute({ type: 'unicodePwd', values: [unicodePwd(password)] }),
        }),
      ]);
  } finally {
    await admin.unbind().catch(() => undefined);
  }
  const run = spawnSync(SAMBA_PYTHON, ['-c', GRANT], {
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      SMB_CONF: join(sambaCacheDir(), 'etc', 'smb.conf'),
      TRUSTEE_DN: AD_TOMBSTONE_READER_DN,
    },
  });
  if (run.status !== 0) throw new Error(`granting the tombstone read failed: ${run.stderr.slice(-500)}`);
  return { bindDn: AD_TOMBSTONE_READER_DN, password };
}
