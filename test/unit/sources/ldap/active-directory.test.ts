/**
 * The Active Directory profile's pure parts: objectGUID bytes to the canonical GUID string,
 * userAccountControl to a lifecycle, GeneralizedTime in the forms directories send, rootDSE detection,
 * the profile's mapping of one entry, and the paged search's page-size and reference rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdminLimitExceededError, BusyError, SizeLimitExceededError } from 'ldapts';
import type { SearchResult } from 'ldapts';
import {
  attributeMapFor,
  generalizedTime,
  guidString,
  isActiveDirectoryRootDse,
  isoOfGeneralizedTime,
  LDAP_PROFILES,
  ldapEntryMapper,
  ldapOptionsFromSpec,
  lifecycleOfUserAccountControl,
  pagedSearch,
} from '../../../../lambda/sources/ldap/index.js';
import type { SourceSpec } from '../../../../lambda/sources/index.js';

const spec = (options: Record<string, unknown>): SourceSpec => ({
  source_id: 'acme-ad',
  adapter: 'ldap',
  options: {
    url: 'ldaps://dc1.acme.test',
    base_dn: 'OU=People,DC=acme,DC=test',
    bind_dn: 'CN=r,DC=acme,DC=test',
    ...options,
  },
  credential: { name: 'P', value: () => Promise.resolve('secret') },
});

describe('objectGUID', () => {
  it('reads the first three groups little-endian and the last two as stored', () => {
    const bytes = Buffer.from('33221100554477668899aabbccddeeff', 'hex');
    assert.equal(guidString(bytes), '00112233-4455-6677-8899-aabbccddeeff');
  });

  it('renders the bytes Samba stored for a real account as AD tools print them', () => {
    // Seen on Samba AD DC 4.17: objectGUID <16 38 7d 8c 98 c5 0d 47 84 40 9c e5 8f ea 39 c7>.
    const bytes = Buffer.from('16387d8c98c50d4784409ce58fea39c7', 'hex');
    assert.equal(guidString(bytes), '8c7d3816-c598-470d-8440-9ce58fea39c7');
  });

  it('is undefined for anything but 16 bytes', () => {
    assert.equal(guidString(Buffer.alloc(15)), undefined);
    assert.equal(guidString(Buffer.alloc(17)), undefined);
  });
});

describe('userAccountControl', () => {
  it('is inactive with ACCOUNTDISABLE (0x2) set, active without it', () => {
    assert.equal(lifecycleOfUserAccountControl('512'), 'active');
    assert.equal(lifecycleOfUserAccountControl('514'), 'inactive');
    assert.equal(lifecycleOfUserAccountControl('66048'), 'active'); // NORMAL | DONT_EXPIRE_PASSWORD
    assert.equal(lifecycleOfUserAccountControl('66050'), 'inactive');
    assert.equal(lifecycleOfUserAccountControl('-2147483646'), 'inactive'); // a signed 32-bit value
  });

  it('is null when missing or not a number', () => {
    for (const value of [undefined, '', 'disabled', '0x2', '1e3'])
      assert.equal(lifecycleOfUserAccountControl(value), null, String(value));
  });
});

describe('GeneralizedTime', () => {
  it('reads the forms OpenLDAP and Active Directory send, and differentials', () => {
    const cases: [string, string][] = [
      ['20261008120000Z', '2026-10-08T12:00:00Z'],
      ['20261206152118.0Z', '2026-12-06T15:21:18Z'],
      ['20261206152118,5Z', '2026-12-06T15:21:18Z'],
      ['202612061521Z', '2026-12-06T15:21:00Z'],
      ['2026120615Z', '2026-12-06T15:00:00Z'],
      ['20261206152118+0200', '2026-12-06T13:21:18Z'],
      ['20261206002118-05', '2026-12-06T05:21:18Z'],
    ];
    for (const [value, iso] of cases) assert.equal(isoOfGeneralizedTime(value), iso, value);
  });

  it('refuses what is not a real time', () => {
    for (const value of ['2026', '20260230120000Z', '20261206246000Z', '20261206152118', 'x20261206152118Z'])
      assert.equal(isoOfGeneralizedTime(value), undefined, value);
  });

  it('writes assertion values with or without AD’s fraction', () => {
    assert.equal(generalizedTime('2026-12-06T15:21:18.734Z'), '20261206152118Z');
    assert.equal(generalizedTime('2026-12-06T15:21:18Z', true), '20261206152118.0Z');
  });
});

describe('the Active Directory profile', () => {
  it('is chosen by the profile option, and detected from supportedCapabilities or forestFunctionality', () => {
    assert.equal(ldapOptionsFromSpec(spec({})).profile, 'standard');
    assert.equal(ldapOptionsFromSpec(spec({ profile: 'active-directory' })).profile, 'active-directory');
    assert.throws(() => ldapOptionsFromSpec(spec({ profile: 'ad' })), /options.profile must be one of/);
    assert.equal(isActiveDirectoryRootDse({ supportedCapabilities: ['1.2.840.113556.1.4.800'] }), true);
    assert.equal(isActiveDirectoryRootDse({ forestfunctionality: '7' }), true);
    assert.equal(isActiveDirectoryRootDse({ supportedLDAPVersion: '3', namingContexts: 'dc=x' }), false);
  });

  it('checks TLS options: PEM certificates and a host name', () => {
    assert.throws(
      () => ldapOptionsFromSpec(spec({ tls_ca: '/etc/ssl/ca.pem' })),
      (e: Error & { problems?: string[] }) => e.problems?.some((p) => p.includes('options.tls_ca')) === true,
    );
    assert.throws(() => ldapOptionsFromSpec(spec({ tls_server_name: 'a b' })), /options.tls_server_name/);
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    assert.equal(ldapOptionsFromSpec(spec({ tls_ca: pem })).tlsCa, pem);
  });

  it('maps an entry: GUID, names, UPN, phone falling back to mobile, disabled, whenChanged, uSNChanged', () => {
    const profile = LDAP_PROFILES['active-directory'];
    const options = ldapOptionsFromSpec(spec({ profile: 'active-directory' }));
    const map = ldapEntryMapper(
      { source_type: 'ldap', source_identity: 'acme-ad' },
      'OU=People,DC=acme,DC=test',
      attributeMapFor(options, 'active-directory'),
      '2026-12-06T16:00:00Z',
      profile,
    );
    const record = map({
      dn: 'CN=u000001,OU=People,DC=acme,DC=test',
      objectGUID: Buffer.from('33221100554477668899aabbccddeeff', 'hex'),
      displayName: 'Renée Ångström',
      mail: 'renee@example.com',
      userPrincipalName: 'u000001@acme.test',
      sAMAccountName: 'u000001',
      mobile: '+15550001',
      userAccountControl: '514',
      whenChanged: '20261206152118.0Z',
      uSNChanged: '4101',
    }) as unknown as Record<string, unknown>;
    assert.equal(record['external_id'], '00112233-4455-6677-8899-aabbccddeeff');
    assert.equal(record['display_name'], 'Renée Ångström');
    assert.equal(record['phone'], '+15550001');
    assert.equal(record['lifecycle'], 'inactive');
    assert.equal(record['observed_at'], '2026-12-06T15:21:18Z');
    assert.equal(record['version'], '4101');
    assert.deepEqual(record['attributes'], {
      userprincipalname: 'u000001@acme.test',
      samaccountname: 'u000001',
      mobile: '+15550001',
    });
  });
});

describe('the paged search', () => {
  const page = (entries: number, references: string[] = []): SearchResult => ({
    searchEntries: Array.from({ length: entries }, (_, i) => ({ dn: `cn=${i}` })),
    searchReferences: references,
  });
  /** A directory whose MaxPageSize is `max`: a larger first page is refused with `refusal`. */
  const directory = (max: number, refusal: Error, results: SearchResult[]) => {
    const asked: number[] = [];
    const search = (size: number): AsyncIterator<SearchResult> => {
      asked.push(size);
      let i = 0;
      return {
        next: () =>
          size > max
            ? Promise.reject(refusal)
            : Promise.resolve(
                i < results.length ? { done: false, value: results[i++]! } : { done: true, value: undefined },
              ),
      };
    };
    return { asked, search };
  };

  it('halves a page size the directory refuses (4 or 11) and keeps the size that worked', async () => {
    for (const refusal of [new SizeLimitExceededError('too big'), new AdminLimitExceededError('too big')]) {
      const dc = directory(300, refusal, [page(250), page(10)]);
      let size = 1000;
      const pages = pagedSearch({ search: dc.search, pageSize: () => size, lowered: (s) => (size = s) });
      const sizes = [await pages.next(), await pages.next()].map((step) =>
        step.done === true ? -1 : step.value.searchEntries.length,
      );
      assert.deepEqual(sizes, [250, 10]);
      assert.equal((await pages.next()).done, true);
      assert.deepEqual(dc.asked, [1000, 500, 250]);
      assert.equal(size, 250);
    }
  });

  it('does not lower the size for other failures', async () => {
    const dc = directory(0, new BusyError('busy'), []);
    const pages = pagedSearch({
      search: dc.search,
      pageSize: () => 100,
      lowered: () => assert.fail('lowered'),
    });
    await assert.rejects(pages.next(), BusyError);
    assert.deepEqual(dc.asked, [100]);
  });

  it('fails on a continuation reference instead of ending complete without its entries', async () => {
    const dc = directory(1000, new Error('unused'), [page(100), page(3, ['ldap://other.example/DC=x'])]);
    const pages = pagedSearch({ search: dc.search, pageSize: () => 100, lowered: () => undefined });
    await pages.next();
    await assert.rejects(pages.next(), { code: 'source_unavailable', reason: 'referral_not_followed' });
  });
});
