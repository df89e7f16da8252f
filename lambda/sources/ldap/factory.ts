/**
 * Builds `ldap` adapters with this composition's kernel settings (loopback allowance, log). A definition's
 * options are read when its source is built; the LDAP (and ldapts, the LDAP client) adapter code is loaded on
 * the first read (`registry/deferred.ts`), and an Active Directory source's tombstone reader on the cache's
 * first delta.
 */
import type { ProviderSettings } from '../kernel/settings.js';
import { deferredSourceFactory } from '../registry/deferred.js';
import type { SourceFactory } from '../registry/types.js';
import { noteLdapSource } from './delta.js';
import { ldapOptionsFromSpec } from './options.js';

export function createLdapSourceFactory(settings: ProviderSettings = {}): SourceFactory {
  return deferredSourceFactory(
    (spec) => {
      const options = ldapOptionsFromSpec(spec);
      // The cache's change feed of this source (delta.ts) reads tombstones with the same options and settings.
      noteLdapSource(spec, options, settings);
      return options;
    },
    async () => {
      const { createLdapSource } = await import('./ldap-source.js');
      return (spec, options) => createLdapSource(spec, options, settings);
    },
  );
}
