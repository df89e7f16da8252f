/**
 * Each cacheable kind's matcher of mapped records (the cache's table, `feeds.ts`) selects exactly the users its
 * provider query selects: for Entra and Okta the query a live read sends is evaluated by the replay server's own
 * parser over the replay's users (vendor shapes included), the matcher over the same users as the adapter maps
 * them; LDAP compares the attributes its filter names; SCIM keeps every address its `co` compares.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RawRecord, SourceQuery } from '../../../../lambda/federation/index.js';
import { CACHE_KINDS, kindMatchFor } from '../../../../lambda/sources/cache/index.js';
import { localMatcher, recordSearchText } from '../../../../lambda/sources/kernel/local-match.js';
import { graphRequestFor } from '../../../../lambda/sources/entra/graph-query.js';
import { graphUserMapper } from '../../../../lambda/sources/entra/user-record.js';
import { oktaSearchFor } from '../../../../lambda/sources/okta/search.js';
import { oktaUserMapper } from '../../../../lambda/sources/okta/user-record.js';
import { scimUserMapper } from '../../../../lambda/sources/scim/user-record.js';
import { parseGraphFilter } from '../../../../local/providers/graph/filter.js';
import { graphUser } from '../../../../local/providers/graph/users.js';
import { parseOktaSearch } from '../../../../local/providers/okta/search.js';
import { oktaUser, searchAttributes } from '../../../../local/providers/okta/users.js';
import { seededPopulation } from '../../../../local/providers/population.js';
import type { ProviderPerson } from '../../../../local/providers/population.js';

const ORG = 'https://acme.okta.example';
const AT = '2026-12-06T12:00:00.000Z';

/** People of the seeded pool, plus names a prefix and a containment tell apart, and diacritics. */
const people: ProviderPerson[] = [
  ...seededPopulation({ name: 'kind-match', size: 200 }),
  ...[
    ['Zoë', 'Müller', 'zoe.mueller'],
    ['José', 'García', 'jose.garcia'],
    ['Ann', 'Annersby', 'a.annersby'],
    ['Łukasz', 'Søren', 'lukasz.s'],
  ].map(([given, family, local], i) => ({
    ...seededPopulation({ name: 'kind-match', size: 1 })[0]!,
    id: `u90000${i}`,
    givenName: given!,
    familyName: family!,
    displayName: `${given} ${family}`,
    userName: `${local}@acme.example`,
    email: `${local}@acme.example`,
  })),
];

/** Texts a search may hold: single letters, prefixes of one property, containment-only, case, diacritics. */
const TEXTS = [
  'a',
  'Z',
  'zo',
  'ZOË',
  'zoe',
  'mül',
  'garc',
  'arcía',
  'nners',
  'ann annersby',
  'Ann Ann',
  'josé garcía',
  'lukasz.s',
  'a.ann',
  '@acme.example',
  '@ACME.EXAMPLE',
  'nobody-matches-this',
  '  Ann  ',
  '',
];

const queries: SourceQuery[] = TEXTS.map((query) => ({ operation: 'search_people', query }));

/** A record as the `ldap` adapter maps an entry. */
function ldapRecord(id: string, name: string, email: string, attributes: Record<string, string>): RawRecord {
  return {
    source_type: 'ldap',
    source_identity: 'acme-ldap',
    external_id: id,
    record_type: 'person',
    observed_at: AT,
    capabilities: ['read'],
    display_name: name,
    email,
    attributes,
  };
}

function selected(
  match: ((record: RawRecord) => boolean) | undefined,
  records: readonly RawRecord[],
): string[] {
  return (match === undefined ? records : records.filter(match)).map((r) => r.external_id);
}

describe('a cached read’s matcher for each kind', () => {
  it('selects for an entra source exactly the users Graph’s $filter selects', () => {
    // Prepare: Graph users as the replay holds them (with the documented shapes), and as the adapter maps them
    const users = people.map((person) => graphUser(person, 'acme.onmicrosoft.com', true));
    const mapper = graphUserMapper({ source_type: 'directory', source_identity: 'acme-entra' }, AT);
    const records = users.map((user) => mapper(user) as RawRecord);
    const match = kindMatchFor('entra');
    assert.ok(match);
    for (const query of queries) {
      // Act
      const filter = graphRequestFor(query).filter;
      const atGraph =
        filter === undefined ? users : users.filter((user) => parseGraphFilter(filter).matches(user));
      // Assess
      assert.deepEqual(
        selected(match(query), records),
        atGraph.map((user) => String(user['id'])),
        JSON.stringify(query),
      );
    }
  });

  it('selects for an okta source exactly the users Okta’s search expression selects', () => {
    const users = people.map((person) => oktaUser(person, ORG));
    const mapper = oktaUserMapper({ source_type: 'directory', source_identity: 'acme-okta' }, ORG, AT);
    const records = users.map((user) => mapper(user) as RawRecord);
    const match = kindMatchFor('okta');
    assert.ok(match);
    for (const query of queries) {
      const search = oktaSearchFor(query);
      const atOkta =
        search === undefined
          ? users
          : users.filter((user) => parseOktaSearch(search, 'search')(searchAttributes(user)));
      assert.deepEqual(
        selected(match(query), records),
        atOkta.map((user) => user.id),
        JSON.stringify(query),
      );
    }
  });

  it('selects by prefix, not containment, where the provider searches by prefix', () => {
    const users = people.map((person) => oktaUser(person, ORG));
    const mapper = oktaUserMapper({ source_type: 'directory', source_identity: 'acme-okta' }, ORG, AT);
    const records = users.map((user) => mapper(user) as RawRecord);
    const byPrefix = selected(
      kindMatchFor('okta')?.({ operation: 'search_people', query: 'nners' }),
      records,
    );
    assert.deepEqual(byPrefix, []);
    const ann = selected(kindMatchFor('okta')?.({ operation: 'search_people', query: 'Ann Ann' }), records);
    assert.ok(ann.includes(users.find((u) => u.profile['lastName'] === 'Annersby')!.id));
  });

  it('selects for an ldap source by containment on the profile’s search attributes, Active Directory’s account names included', () => {
    // Prepare: entries as the adapter maps them, a standard one (`uid` is read, but no search compares it)
    // and an Active Directory one (its account names kept under their lower-cased names)
    const standard = ldapRecord('e1', 'Zoë Müller', 'zoe.mueller@acme.example', { uid: 'zm0042' });
    const ad = ldapRecord('e2', 'Ann Berg', 'ann.berg@acme.example', {
      userprincipalname: 'u000123@ad.acme.example',
      samaccountname: 'u000123',
    });
    const match = (text: string) =>
      selected(kindMatchFor('ldap')?.({ operation: 'search_people', query: text }), [standard, ad]);
    // Act and assess
    assert.deepEqual(match('ÜLLER'), ['e1']); // contained, caseless
    assert.deepEqual(match('u000123'), ['e2']); // the sAMAccountName, which the kernel's matcher does not read
    assert.deepEqual(match('ad.acme'), ['e2']); // the userPrincipalName
    assert.deepEqual(match('zm0042'), []); // a uid: the directory's search never compares it
    assert.deepEqual(match('acme.example'), ['e1', 'e2']);
    // Unicode normalisation: OpenLDAP's match normalises, Active Directory's does not
    const decomposed = ldapRecord('e3', 'Zoe\u0308 Berg', 'zoe.berg@acme.example', {});
    const adDecomposed = ldapRecord('e4', 'Zoe\u0308 Berg', 'zoe.berg.4@acme.example', {
      samaccountname: 'u4',
    });
    const found = (text: string) =>
      selected(kindMatchFor('ldap')?.({ operation: 'search_people', query: text }), [
        decomposed,
        adDecomposed,
      ]);
    assert.deepEqual(found('ZOË'), ['e3']);
    assert.deepEqual(found('ZOE\u0308'), ['e3', 'e4']);
  });

  it('finds a scim user by any of their addresses, as SCIM’s `co` on emails.value does', () => {
    const mapper = scimUserMapper({ source_type: 'scim', source_identity: 'acme-scim' }, 'scim.example', AT);
    const user = (id: string, emails: string[]) => ({
      id,
      userName: id,
      displayName: `Person ${id}`,
      emails: emails.map((value, i) => ({ value, primary: i === 0 })),
    });
    const records = [
      user('s1', ['one@acme.example', 'alias@old.example']),
      user('s2', ['two@acme.example']),
    ].map((u) => mapper(u) as RawRecord);
    assert.equal(records[0]!.email, 'one@acme.example');
    assert.deepEqual(records[0]!.attributes?.['emails'], ['one@acme.example', 'alias@old.example']);
    assert.equal(records[1]!.attributes?.['emails'], undefined, 'one address: the email field alone');
    const keep = localMatcher<RawRecord>(
      { operation: 'search_people', query: 'old.ex' },
      recordSearchText,
      () => AT,
    );
    assert.equal(kindMatchFor('scim'), undefined, 'scim searches by containment, as the kernel does');
    assert.deepEqual(selected(keep, records), ['s1']);
  });

  it('leaves every other kind, and every query that is no search, to the kernel’s matcher', () => {
    const own = ['entra', 'okta', 'ldap'];
    for (const kind of Object.keys(CACHE_KINDS).filter((k) => !own.includes(k)))
      assert.equal(kindMatchFor(kind), undefined, kind);
    for (const kind of own) {
      const match = kindMatchFor(kind)!;
      assert.equal(match({ operation: 'list_people', updated_since: AT }), undefined, kind);
      assert.equal(match({ operation: 'get_person', record_ref: 'bos:person:x' }), undefined, kind);
      assert.equal(match({ operation: 'search_people', query: '  ' }), undefined, kind);
    }
    assert.equal(kindMatchFor('no-such-kind'), undefined);
    assert.equal(kindMatchFor('constructor'), undefined);
  });
});
