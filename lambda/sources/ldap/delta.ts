/**
 * The `ldap` kind's deletions for the cache's change feed. The factory notes each source's validated options
 * here when it builds the source; an Active Directory (or `auto`) source's tombstone reader
 * (`tombstones.ts`) is loaded on its first delta, like the adapter's read path (`registry/deferred.ts`), and
 * kept with what it learned for as long as the source lives. A `standard` directory keeps no tombstones an
 * LDAP read can see (slapd would need its syncprov or accesslog overlay): it has none.
 */
import type { SourceAdapter } from '../../federation/index.js';
import { adapterChangeFeed } from '../cache/adapter-feed.js';
import type { DeletionSource } from '../cache/adapter-feed.js';
import type { ChangeFeed } from '../cache/port.js';
import type { ProviderSettings } from '../kernel/settings.js';
import type { SourceSpec } from '../registry/types.js';
import type { LdapSourceOptions } from './options.js';
import type { TombstoneReader } from './tombstones.js';

interface Built {
  readonly options: LdapSourceOptions;
  readonly settings: ProviderSettings;
  reader?: TombstoneReader;
  loading?: Promise<TombstoneReader>;
}

// Keyed by the spec object the factory was given: the composition's `specOf` hands back that same object.
const built = new WeakMap<SourceSpec, Built>();

/** Called by the `ldap` factory for each source it builds. */
export function noteLdapSource(
  spec: SourceSpec,
  options: LdapSourceOptions,
  settings: ProviderSettings,
): void {
  built.set(spec, { options, settings });
}

/** The deletions of a directory source the `ldap` factory built, or `undefined` when it keeps none. */
export function ldapDeletions(spec: SourceSpec): DeletionSource | undefined {
  const known = built.get(spec);
  if (known === undefined || known.options.profile === 'standard') return undefined;
  const load = () =>
    (known.loading ??= import('./tombstones.js').then(
      ({ createTombstoneReader }) =>
        (known.reader = createTombstoneReader(spec, known.options, known.settings)),
      (error: unknown) => {
        known.loading = undefined;
        throw error;
      },
    ));
  return {
    get reported() {
      return known.reader?.reported ?? true;
    },
    async *deletedSince(watermark, options) {
      yield* (await load()).deletedSince(watermark, options);
    },
  };
}

/** The change feed of an `ldap` source: its own reads, and Active Directory's tombstones where it keeps them. */
export function ldapChangeFeed(spec: SourceSpec, adapter: SourceAdapter): ChangeFeed {
  const deletions = ldapDeletions(spec);
  return adapterChangeFeed(adapter, deletions === undefined ? {} : { deletions });
}
