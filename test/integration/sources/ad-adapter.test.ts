/**
 * The `ldap` adapter's Active Directory profile against a real domain controller: Samba AD DC
 * (`local/providers/ad`), provisioned once and cached, reached through a loopback relay for the shared
 * adapter contract and directly for LDAPS and StartTLS. Skipped, with the reason printed, when Samba is
 * not installed or another run holds its fixed ports.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Attribute, Change, Client } from 'ldapts';
import { runFederation } from '../../../lambda/federation/index.js';
import type { FederationResult, SourceQuery } from '../../../lambda/federation/index.js';
import type { ProviderLogEntry, SourceSpec } from '../../../lambda/sources/index.js';
import { createLdapSource, ldapOptionsFromSpec } from '../../../lambda/sources/ldap/index.js';
import {
  accountNames,
  sambaMissing,
  startSambaAd,
  waitForSambaLock,
} from '../../../local/providers/ad/index.js';
import type { LocalSambaAd } from '../../../local/providers/ad/index.js';
import type { ProviderPerson } from '../../../local/providers/population.js';
import { adapterContract } from './adapter-contract.js';
import { relaySwitches } from './ldap-relay-switches.js';

// Samba's ports are fixed: wait a while for another run (an `npm start`, a benchmark) to finish with it.
const lock = sambaMissing() ?? (await waitForSambaLock(90_000));
let ad: LocalSambaAd | undefined;
let skipReason = typeof lock === 'string' ? lock : undefined;
// Started here, not in a hook: the first run on a machine provisions the domain (a minute or two), which
// no test's timeout should have to cover.
if (typeof lock !== 'string')
  try {
    ad = await startSambaAd({ lock });
  } catch (error) {
    skipReason = `Samba AD DC did not start: ${error instanceof Error ? error.message : String(error)}`;
  }
const running = (): LocalSambaAd => {
  if (ad === undefined) throw new Error('Samba is not running');
  return ad;
};
after(() => ad?.stop());

/** An Active Directory source on the running DC; `options` override the defaults. */
function adSource(
  options: Record<string, unknown> = {},
  extra: { password?: string; log?: (entry: ProviderLogEntry) => void } = {},
) {
  const dc = running();
  const spec: SourceSpec = {
    source_id: 'acme-ad',
    adapter: 'ldap',
    options: {
      url: dc.url,
      base_dn: dc.baseDn,
      bind_dn: dc.bindDn,
      profile: 'active-directory',
      page_size: 100,
      ...options,
    },
    credential: { name: 'ACME_AD_PASSWORD', value: () => Promise.resolve(extra.password ?? dc.bindPassword) },
  };
  return createLdapSource(spec, ldapOptionsFromSpec(spec), {
    allowLoopbackHttp: true,
    ...(extra.log === undefined ? {} : { log: extra.log }),
  });
}

/** What AD's substring search over name, mail, UPN and sAMAccountName finds (ASCII case-insensitively). */
function adMatches(person: ProviderPerson, text: string): boolean {
  const needle = text.trim().toLowerCase();
  const { sam, upn } = accountNames(person);
  return [person.displayName, person.email, upn, sam].some((v) => v.toLowerCase().includes(needle));
}

const switches = relaySwitches(() => running().relay);

adapterContract('ldap (Active Directory profile, Samba AD DC)', {
  skipReason: () => skipReason,
  start: () => Promise.resolve(),
  // The DC stays up for the profile's own tests below; the file's `after` stops it.
  stop: () => Promise.resolve(),
  adapter: (variant = {}) =>
    adSource(
      {},
      {
        ...(variant.badCredential === true ? { password: 'wrong-password-5d2c' } : {}),
        ...(variant.log === undefined ? {} : { log: variant.log }),
      },
    ),
  people: () => running().people,
  providerPageSize: 100,
  ...switches,
  throttleSkipReason: 'Samba has no switch that makes its LDAP server answer 51 busy',
  foreignRecordsSkipReason: 'Samba has no suffix alias that returns entries named outside the searched base',
  reset: () => switches.resetRelay(),
  secrets: () => [
    running().bindPassword,
    running().adminPassword,
    'wrong-password-5d2c',
    'AcceptSecurityContext',
    'LdapErr',
  ],
  searchMatches: adMatches,
});

async function federate(adapter: ReturnType<typeof adSource>, query: SourceQuery): Promise<FederationResult> {
  return runFederation({ sources: [adapter], query, pageSize: 100, deadline: Date.now() + 20_000 });
}
const emails = (result: FederationResult) => result.records.map((r) => r.email ?? '').sort();
const allEmails = () =>
  running()
    .people.map((p) => p.email)
    .sort();

describe('the ldap adapter against Active Directory (Samba AD DC)', { timeout: 180_000 }, () => {
  if (skipReason !== undefined) {
    it(`is skipped: ${skipReason}`, (t) => {
      process.stdout.write(`# Active Directory tests skipped: ${skipReason}\n`);
      t.skip(skipReason);
    });
    return;
  }

  it('renders objectGUID as the canonical GUID string the DC itself resolves in a <GUID=…> name', async () => {
    const result = await federate(adSource(), { operation: 'search_people', query: 'u000007' });
    const record = result.records.find((r) => r.sources[0]?.external_id !== undefined);
    const guid = record?.sources[0]?.external_id ?? '';
    assert.match(guid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const client = new Client({ url: running().directUrl });
    try {
      await client.bind(running().bindDn, running().bindPassword);
      const found = await client.search(`<GUID=${guid}>`, { scope: 'base', attributes: ['sAMAccountName'] });
      assert.equal(found.searchEntries[0]?.['sAMAccountName'], 'u000007');
    } finally {
      await client.unbind();
    }
  });

  it('finds a person by display name, email, userPrincipalName and sAMAccountName', async () => {
    const person = running().people[41];
    assert.ok(person !== undefined);
    const { sam, upn } = accountNames(person);
    for (const text of [person.displayName, person.email, upn, sam]) {
      const result = await federate(adSource(), { operation: 'search_people', query: text });
      assert.equal(result.metadata.completeness, 'complete');
      assert.ok(emails(result).includes(person.email), `"${text}" finds ${person.id}`);
      assert.ok(
        result.records.every((r) =>
          adMatches(
            running().people.find((p) => p.email === r.email)!,
            text,
          ),
        ),
      );
    }
  });

  it('maps names, mail, phone, UPN and sAMAccountName, and non-ASCII names unchanged', async () => {
    const result = await federate(adSource(), { operation: 'list_people' });
    assert.equal(result.metadata.completeness, 'complete');
    for (const person of running().people) {
      const record = result.records.find((r) => r.email === person.email);
      assert.ok(record !== undefined, person.id);
      assert.equal(record.display_name, person.displayName);
      assert.equal(record.phone, person.phone);
      const { sam, upn } = accountNames(person);
      assert.equal(record.attributes['samaccountname'], sam);
      assert.equal(record.attributes['userprincipalname'], upn);
    }
  });

  it('answers get_person with the person a listed record_ref names', async () => {
    const listed = await federate(adSource(), { operation: 'list_people' });
    const wanted = listed.records[17];
    assert.ok(wanted !== undefined);
    const got = await federate(adSource(), { operation: 'get_person', record_ref: wanted.record_ref });
    assert.deepEqual(
      got.records.map((r) => r.record_ref),
      [wanted.record_ref],
    );
    assert.equal(got.records[0]?.email, wanted.email);
  });

  it('reports accounts with userAccountControl ACCOUNTDISABLE (514) as inactive, the others active', async () => {
    const result = await federate(adSource(), { operation: 'list_people' });
    const disabled = running().people.filter((p) => !p.active);
    assert.ok(disabled.length >= 10, 'the seed has disabled accounts');
    for (const person of running().people) {
      const record = result.records.find((r) => r.email === person.email);
      assert.equal(record?.lifecycle, person.active ? 'active' : 'inactive', person.id);
    }
  });

  it('reads updated_since through whenChanged, and takes observed_at from it', async () => {
    const dc = running();
    // whenChanged has whole seconds: start the window on a fresh second.
    await delay(1100 - (Date.now() % 1000));
    const since = new Date(Date.now() - (Date.now() % 1000)).toISOString();
    const changed = dc.people.slice(200, 203);
    const admin = new Client({ url: dc.directUrl });
    try {
      await admin.bind(dc.adminDn, dc.adminPassword);
      for (const person of changed)
        await admin.modify(`CN=${person.id},${dc.baseDn}`, [
          new Change({
            operation: 'replace',
            modification: new Attribute({ type: 'description', values: [`changed ${since}`] }),
          }),
        ]);
    } finally {
      await admin.unbind();
    }
    const result = await federate(adSource(), { operation: 'list_people', updated_since: since });
    assert.equal(result.metadata.completeness, 'complete');
    assert.deepEqual(emails(result), changed.map((p) => p.email).sort());
    for (const record of result.records)
      assert.ok(
        Date.parse(record.sources[0]?.observed_at ?? '') >= Date.parse(since),
        'observed_at is whenChanged',
      );
  });

  it('reads every person in pages of 1000 as well (under the DC’s MaxPageSize)', async () => {
    const result = await federate(adSource({ page_size: 1000 }), { operation: 'list_people' });
    assert.deepEqual(emails(result), allEmails());
  });

  it('detects Active Directory from the rootDSE when the profile is auto', async () => {
    const result = await federate(adSource({ profile: 'auto' }), { operation: 'list_people' });
    assert.deepEqual(emails(result), allEmails());
    assert.ok(result.records.every((r) => /^[0-9a-f-]{36}$/.test(r.sources[0]?.external_id ?? '')));
  });

  it('reads from the domain root without following the continuation references a DC returns there', async () => {
    const dc = running();
    // With the domain-scope control (the profile sends it) the DC answers for its own domain only.
    const scoped = await federate(adSource({ base_dn: dc.domainDn }), { operation: 'list_people' });
    assert.equal(scoped.metadata.completeness, 'complete');
    assert.ok(allEmails().every((email) => emails(scoped).includes(email)));
    // Without it (a standard-profile search for AD users) Samba returns a reference to CN=Configuration:
    // it is not followed, and the read does not claim to be complete.
    const logs: ProviderLogEntry[] = [];
    const unscoped = adSource(
      {
        base_dn: dc.domainDn,
        profile: 'standard',
        object_class: 'user',
        attributes: { external_id: 'sAMAccountName', display_name: 'displayName' },
      },
      { log: (entry) => logs.push(entry) },
    );
    const result = await federate(unscoped, { operation: 'list_people' });
    assert.equal(result.metadata.completeness, 'partial');
    assert.equal(result.metadata.source_errors[0]?.error.code, 'source_unavailable');
    assert.ok(logs.some((l) => 'reason' in l && l.reason === 'referral_not_followed'));
  });

  it('reads over LDAPS and over StartTLS, trusting the configured CA and checking the server name', async () => {
    const dc = running();
    const tls = { tls_ca: dc.caPem, tls_server_name: dc.tlsServerName };
    for (const options of [
      { url: dc.ldapsUrl, ...tls },
      { url: dc.directUrl, start_tls: true, ...tls },
    ]) {
      const result = await federate(adSource(options), { operation: 'list_people' });
      assert.equal(result.metadata.completeness, 'complete', options.url);
      assert.deepEqual(emails(result), allEmails());
    }
  });

  it('refuses a certificate it cannot verify: no configured CA, or another server name', async () => {
    const dc = running();
    for (const options of [
      { url: dc.ldapsUrl, tls_server_name: dc.tlsServerName },
      { url: dc.ldapsUrl, tls_ca: dc.caPem, tls_server_name: 'other.acme.test' },
      { url: dc.directUrl, start_tls: true, tls_server_name: dc.tlsServerName },
    ]) {
      const result = await federate(adSource(options), { operation: 'list_people' });
      assert.equal(
        result.metadata.source_errors[0]?.error.code,
        'source_unavailable',
        JSON.stringify(options),
      );
      assert.equal(result.records.length, 0);
    }
  });
});
