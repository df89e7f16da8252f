/**
 * The `ldap` kind's entry in the cache's table of change feeds: an Active Directory source (or one whose
 * profile the rootDSE will decide) reports deletions from its tombstones and still sweeps daily; a standard
 * directory reports none. No directory is contacted: the tombstone reader loads on the first delta.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeFeedFor } from '../../../../lambda/sources/cache/index.js';
import type { SourceSpec } from '../../../../lambda/sources/index.js';
import { createLdapSourceFactory } from '../../../../lambda/sources/ldap/index.js';

const spec = (profile?: string): SourceSpec => ({
  source_id: 'acme-directory',
  adapter: 'ldap',
  options: {
    url: 'ldaps://dc1.acme.test',
    base_dn: 'OU=People,DC=acme,DC=test',
    bind_dn: 'CN=reader,DC=acme,DC=test',
    ...(profile === undefined ? {} : { profile }),
  },
  credential: { name: 'ACME_DIRECTORY_PASSWORD', value: () => Promise.resolve('secret') },
});

/** The feed the cache's table gives a source the `ldap` factory built. */
function feedOf(definition: SourceSpec) {
  const adapter = createLdapSourceFactory()(definition);
  return { adapter, feed: changeFeedFor(definition, adapter) };
}

describe('the change feed of an ldap source', () => {
  it('reports deletions for an Active Directory source, and keeps its daily sweep', () => {
    for (const profile of ['active-directory', 'auto']) {
      const { feed } = feedOf(spec(profile));
      assert.equal(feed?.tombstones, true, profile);
      assert.equal(feed?.sweeps, true, profile);
    }
  });

  it('reports none for a standard directory, which a full sync sweeps', () => {
    for (const profile of [undefined, 'standard']) {
      const { feed } = feedOf(spec(profile));
      assert.equal(feed?.tombstones, false, String(profile));
      assert.equal(feed?.sweeps, undefined, String(profile));
    }
  });

  it('reports none for a spec the factory never saw (built by hand): it has only its adapter', () => {
    const { adapter } = feedOf(spec('active-directory'));
    assert.equal(changeFeedFor({ ...spec('active-directory') }, adapter)?.tombstones, false);
  });
});
