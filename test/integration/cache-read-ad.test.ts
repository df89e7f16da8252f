/**
 * The read path of a cached Active Directory source against a real domain controller (Samba AD DC,
 * `local/providers/ad`) and DynamoDB Local: after a full sync, a person is renamed at the DC; a cached read (the
 * baseline, then the delta since its watermark) must select the same people, with the same content, as a live
 * read of the same adapter, whose search is a substring filter on the display name, mail, userPrincipalName and
 * sAMAccountName. Skipped, with the reason printed, when Samba is not installed or another run holds its ports.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Attribute, Change, Client } from 'ldapts';
import type { SourceAdapter } from '../../lambda/federation/index.js';
import type { ChangeFeed } from '../../lambda/sources/cache/index.js';
import type { SourceSpec } from '../../lambda/sources/index.js';
import { createLdapSource, ldapOptionsFromSpec } from '../../lambda/sources/ldap/index.js';
import { sambaMissing, startSambaAd, waitForSambaLock } from '../../local/providers/ad/index.js';
import type { LocalSambaAd } from '../../local/providers/ad/index.js';
import {
  cachedAsComposed,
  assertReadsAsLive,
  federatedRead as read,
  searches,
  startLocalBaseline,
  syncOnce,
} from '../helpers/cache-oracle.js';
import type { LocalBaseline } from '../helpers/cache-oracle.js';
import { javaSuite, needsJava } from '../helpers/java.js';

const SOURCE = 'acme-ad';

// Samba's ports are fixed: wait a while for another run to finish with it (not at all without Java).
const java = needsJava();
const lock = sambaMissing() ?? (java === false ? await waitForSambaLock(240_000) : java);
let dc: LocalSambaAd | undefined;
let skipReason = typeof lock === 'string' ? lock : undefined;
if (typeof lock !== 'string')
  try {
    dc = await startSambaAd({ lock });
  } catch (error) {
    skipReason = `Samba AD DC did not start: ${error instanceof Error ? error.message : String(error)}`;
  }
after(() => dc?.stop());

describe('a cached Active Directory source read against a live read', javaSuite(240_000), () => {
  let baseline: LocalBaseline | undefined;
  let live: SourceAdapter;
  let cached: SourceAdapter;
  let feed: ChangeFeed;

  before(async () => {
    if (dc === undefined) return;
    baseline = await startLocalBaseline('it-read-ad-');
    const password = dc.bindPassword;
    const spec: SourceSpec = {
      source_id: SOURCE,
      adapter: 'ldap',
      options: {
        url: dc.url,
        base_dn: dc.baseDn,
        bind_dn: dc.bindDn,
        profile: 'active-directory',
        page_size: 100,
      },
      credential: { name: 'ACME_AD_PASSWORD', value: () => Promise.resolve(password) },
    };
    live = createLdapSource(spec, ldapOptionsFromSpec(spec), { allowLoopbackHttp: true });
    ({ cached, feed } = cachedAsComposed(spec, live, baseline.store));
  });

  after(async () => {
    await baseline?.stop();
  });

  it('selects the same people as the directory’s substring search, account names included', async (t) => {
    if (dc === undefined) return t.skip(skipReason);
    // Prepare: a baseline, then a person renamed at the DC (a change only the delta knows)
    assert.equal((await syncOnce(SOURCE, baseline!.store, feed, 86_400_000)).result, 'full');
    const renamed = dc.people[7]!;
    // The DC is shared by every AD test and kept between runs: the person gets their name back at the end.
    await setDisplayName(dc, renamed.id, 'Zyxw Renamed');
    t.after(() => setDisplayName(dc, renamed.id, renamed.displayName));
    const texts = [
      'a', // a single letter
      'u00012', // sAMAccountName (u000120 … u000129) and userPrincipalName: neither the name nor the mail
      '@acme.test', // the userPrincipalName's realm
      'zyxw', // the renamed person
      renamed.displayName, // their old name
      'ller', // contained in names
      'RENÉE', // mixed case and a diacritic
      'ångström',
      'zoë', // composed, where the directory holds `Zoe\u0308` decomposed
      'ZOE\u0308',
      'nobody-has-this-name',
    ];

    // Act and assess
    await assertReadsAsLive(cached, live, searches(texts));
    const byAccount = await read(cached, { operation: 'search_people', query: 'u00012' });
    assert.equal(byAccount.records.length, 10, 'found by sAMAccountName alone');
  });
});

/** Sets the display name of person `id` at the DC, as its administrator. */
async function setDisplayName(dc: LocalSambaAd, id: string, displayName: string): Promise<void> {
  const admin = new Client({ url: dc.directUrl });
  try {
    await admin.bind(dc.adminDn, dc.adminPassword);
    await admin.modify(`CN=${id},${dc.baseDn}`, [
      new Change({
        operation: 'replace',
        modification: new Attribute({ type: 'displayName', values: [displayName] }),
      }),
    ]);
  } finally {
    await admin.unbind();
  }
}
