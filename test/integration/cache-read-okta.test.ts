/**
 * The read path of a cached `okta` source against the Okta replay and DynamoDB Local (no mocks): after a full
 * sync, users are created, renamed, re-addressed and deprovisioned at Okta; a cached read (the baseline, then the
 * delta `lastUpdated ge` its watermark) must select the same people, with the same content, as a live read of the
 * same adapter, whose search is Okta's `sw` on first name, last name, email and login (and first plus last name
 * for two words), for a table of searches that a containment match would answer differently. A user deleted at
 * Okta leaves the cached answer at the next full sync, as docs/cache.md says.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SourceAdapter } from '../../lambda/federation/index.js';
import { kindMatchFor } from '../../lambda/sources/cache/index.js';
import type { ChangeFeed } from '../../lambda/sources/cache/index.js';
import { createOktaSource, oktaOptionsFromSpec } from '../../lambda/sources/okta/index.js';
import { oktaUser } from '../../local/providers/okta/users.js';
import {
  cachedAsComposed,
  assertReadsAsLive,
  federatedRead as read,
  searches,
  startLocalBaseline,
  syncOnce,
  ZOE_MULLER,
} from '../helpers/cache-oracle.js';
import type { LocalBaseline } from '../helpers/cache-oracle.js';
import { javaSuite } from '../helpers/java.js';
import { startOAuthVendors } from '../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../helpers/oauth-vendors.js';

const SOURCE = 'acme-okta';

describe('a cached Okta source read against a live read', javaSuite(240_000), () => {
  let baseline: LocalBaseline | undefined;
  let vendors: OAuthVendors;
  let live: SourceAdapter;
  let cached: SourceAdapter;
  let feed: ChangeFeed;

  before(async () => {
    vendors = await startOAuthVendors(200, [ZOE_MULLER]);
    baseline = await startLocalBaseline('it-read-okta-');
    const spec = vendors.oktaSpec();
    live = createOktaSource(spec, oktaOptionsFromSpec(spec, true), { allowLoopbackHttp: true });
    assert.ok(kindMatchFor(spec.adapter), 'the okta kind has its own matcher');
    assert.equal(spec.source_id, SOURCE);
    ({ cached, feed } = cachedAsComposed(spec, live, baseline.store));
  });

  after(async () => {
    await baseline?.stop();
    await vendors?.close();
  });

  // Okta stamps each user's change time: the records agree whole, `observed_at` included
  const agreeOn = (texts: readonly string[]) => assertReadsAsLive(cached, live, searches(texts));

  it('selects the same people as Okta’s prefix search, through creates, changes and deprovisions since the baseline', async () => {
    // Prepare: a baseline, then changes at Okta that only the delta knows
    assert.equal((await syncOnce(SOURCE, baseline!.store, feed, 86_400_000)).result, 'full');
    const okta = vendors.okta;
    const active = okta.users.filter((u) => u.status === 'ACTIVE');
    const [template, renamed, readdressed, relogged, leaver, plain] = active;
    assert.ok(template && renamed && readdressed && relogged && leaver && plain);
    okta.upsert({
      ...oktaUser({ ...okta.people[0]!, id: 'u900001', email: 'zyxw.joiner@example.com' }, okta.origin),
      profile: {
        ...template.profile,
        firstName: 'Zyxw',
        lastName: 'Joiner',
        email: 'zyxw.joiner@example.com',
      },
    });
    okta.upsert({ ...renamed, profile: { ...renamed.profile, firstName: 'Zyxw', lastName: 'Renamed' } });
    okta.upsert({ ...readdressed, profile: { ...readdressed.profile, email: 'qqmail.only@example.com' } });
    okta.upsert({ ...relogged, profile: { ...relogged.profile, login: 'qqlogin.only@corp.example' } });
    okta.upsert({
      ...leaver,
      profile: { ...leaver.profile, lastName: 'Zyxwleaver' },
      status: 'DEPROVISIONED',
    });
    const seededGone = okta.users.find((u) => u.status === 'DEPROVISIONED' && u.id !== leaver.id)!;
    const first = String(plain.profile['firstName']);
    const last = String(plain.profile['lastName']);

    // Act and assess
    await agreeOn([
      'a', // a single letter
      'M',
      'qqmail', // a prefix of one user's email only
      'qqlogin', // a prefix of one user's login only
      `${first} ${last.slice(0, 2)}`, // two words: first name and a prefix of the last name
      `${first} ${last}`,
      last.slice(1), // contained in a name, a prefix of none
      'ller',
      'zyxw', // created, renamed and deprovisioned users
      String(seededGone.profile['lastName']), // a user deprovisioned before the baseline
      'ZOË', // mixed case and a diacritic
      'zoë mü',
      'zoe', // no diacritic: the email and login, not the first name
      'nobody-has-this-name',
    ]);
    // The table means something: a prefix search answers fewer people than a containment would
    const everyone = await read(cached, { operation: 'list_people' });
    const withA = everyone.records.filter((r) => `${r.display_name} ${r.email}`.toLowerCase().includes('a'));
    const byPrefix = await read(cached, { operation: 'search_people', query: 'a' });
    assert.ok(byPrefix.records.length > 0 && byPrefix.records.length < withA.length);

    // Prepare: the deprovisioned user is deleted at Okta; the next full sync's sweep removes them
    okta.remove(leaver.id);
    assert.equal((await syncOnce(SOURCE, baseline!.store, feed, 0)).result, 'full');
    await agreeOn(['zyxw', 'a', String(leaver.profile['firstName'])]);
  });
});
