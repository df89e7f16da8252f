/**
 * The read path of a cached `entra` source against the Graph replay and DynamoDB Local (no mocks): after a full
 * sync, users are added, renamed, disabled and deleted at Graph; a cached read (the baseline, then Graph's delta
 * since the stored delta link) must select the same people as a live read of the same adapter, whose search is
 * Graph's `startswith` on displayName, mail and userPrincipalName (or `endswith(mail,…)` for `@domain`), for a
 * table of searches that a containment match would answer differently.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SourceAdapter } from '../../lambda/federation/index.js';
import { kindMatchFor } from '../../lambda/sources/cache/index.js';
import type { ChangeFeed } from '../../lambda/sources/cache/index.js';
import { createEntraSourceFactory } from '../../lambda/sources/entra/index.js';
import { graphShape, graphUser } from '../../local/providers/graph/users.js';
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

const SOURCE = 'acme-entra';
const DOMAIN = 'contoso.example';

describe('a cached Entra source read against a live read', javaSuite(240_000), () => {
  let baseline: LocalBaseline | undefined;
  let vendors: OAuthVendors;
  let live: SourceAdapter;
  let cached: SourceAdapter;
  let feed: ChangeFeed;

  before(async () => {
    // Graph's documented shapes included: users without mail or names, and B2B guests whose UPN is not their mail
    vendors = await startOAuthVendors(300, [ZOE_MULLER], { graphVendorShapes: true });
    baseline = await startLocalBaseline('it-read-entra-');
    const spec = vendors.entraSpec();
    live = createEntraSourceFactory({ allowLoopbackHttp: true, retryJitterMs: [5, 10] })(spec);
    assert.ok(kindMatchFor(spec.adapter), 'the entra kind has its own matcher');
    assert.equal(spec.source_id, SOURCE);
    ({ cached, feed } = cachedAsComposed(spec, live, baseline.store));
  });

  after(async () => {
    await baseline?.stop();
    await vendors?.close();
  });

  it('selects the same people as Graph’s prefix search, through adds, changes and deletes since the baseline', async () => {
    // Prepare: a baseline, then changes at Graph that only the delta knows
    assert.equal((await syncOnce(SOURCE, baseline!.store, feed, 86_400_000)).result, 'full');
    const { directory, people } = vendors.graph;
    const users = vendors.graph.users;
    const idOf = (n: number) => String(users[n]!['id']);
    directory.add(graphUser({ ...people[1]!, id: 'u900001', displayName: 'Zyxw Joiner' }, DOMAIN, true));
    directory.update(idOf(3), { displayName: 'Zyxw Renamed', mail: 'zyxw.renamed@example.com' });
    directory.update(idOf(4), { accountEnabled: false, displayName: 'Zyxw Disabled' });
    directory.remove(idOf(5), 'deleted');
    directory.remove(idOf(6), 'changed');
    const plain = people.find((p, i) => i > 10 && graphShape(p) === 'plain')!;
    const guest = people.find((p) => graphShape(p) === 'guest')!;
    const local = plain.email.split('@')[0]!;
    const texts = [
      'a', // a single letter
      'M',
      `${local}@exam`, // a prefix of one user's mail only
      `${local}@conto`, // a prefix of one user's userPrincipalName only
      `${guest.email.split('@')[0]}_exam`, // a guest's UPN (`local_domain#EXT#@tenant`), not its mail
      '@example.com', // a mail domain: endswith(mail,…), an advanced query
      '@EXAMPLE.COM',
      `${plain.givenName} ${plain.familyName.slice(0, 2)}`, // two words: a prefix of the display name
      plain.familyName.slice(1), // contained in names, a prefix of none of this user's properties
      'ller',
      'zyxw', // the changed and added users; the disabled one stays, as a live read shows it
      people[5]!.displayName, // a deleted user
      'ZOË', // mixed case and a diacritic
      'zoë mü',
      'zoe', // no diacritic: the mail, not the display name
      'nobody-has-this-name',
    ];

    // Act and assess: the same people, the same content (Graph users carry no change time: read times aside)
    await assertReadsAsLive(cached, live, searches(texts), { readTimes: false });
    // The table means something: a prefix search answers fewer people than a containment would
    const everyA = await read(cached, { operation: 'list_people' });
    const withA = everyA.records.filter((r) => `${r.display_name} ${r.email}`.toLowerCase().includes('a'));
    const byPrefix = await read(cached, { operation: 'search_people', query: 'a' });
    assert.ok(byPrefix.records.length > 0 && byPrefix.records.length < withA.length);
  });
});
