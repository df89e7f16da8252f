/**
 * The `ldap` adapter: a simple bind (over `ldaps://`, or StartTLS; plain `ldap://` only to a loopback host
 * on a local run), then an RFC 2696 paged search under the base DN, read page by page through the
 * kernel's page loop (ldapts keeps the paged-results cookie; `paged-search.ts` adds the page-size and
 * reference rules). The directory profile (`profiles.ts`) is the definition's, or with `auto` the
 * rootDSE's answer, learned once per warm function. The connection (`connection.ts`) is torn down by the
 * read's signal and deadline, so the directory sees the search abandoned.
 */
import type { Client, SearchResult } from 'ldapts';
import type {
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceQuery,
  SourceRef,
} from '../../federation/index.js';
import { providerPages, ReadBudget } from '../kernel/index.js';
import type { ProviderSettings } from '../kernel/index.js';
import type { SourceSpec } from '../registry/types.js';
import { isActiveDirectoryRootDse } from './active-directory.js';
import { openLdapConnection } from './connection.js';
import { ldapEntryMapper } from './entry-record.js';
import { ldapFilterFor } from './filters.js';
import { attributeMapFor } from './options.js';
import type { LdapSourceOptions } from './options.js';
import { pagedSearch } from './paged-search.js';
import { binaryNames, LDAP_PROFILES, requestedAttributes } from './profiles.js';
import type { LdapProfileName } from './attribute-maps.js';

type Pages = AsyncIterator<SearchResult>;

/** Whether the rootDSE names a domain controller (an unreadable rootDSE reads as a standard directory). */
async function detectProfile(client: Client): Promise<LdapProfileName> {
  const root = await client.search('', {
    scope: 'base',
    filter: '(objectClass=*)',
    attributes: ['supportedCapabilities', 'forestFunctionality'],
  });
  const entry = root.searchEntries[0];
  return entry !== undefined && isActiveDirectoryRootDse(entry) ? 'active-directory' : 'standard';
}

/** An LDAP adapter for one validated definition. */
export function createLdapSource(
  spec: SourceSpec,
  options: LdapSourceOptions,
  settings: ProviderSettings = {},
): SourceAdapter {
  const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
  // Learned for the warm function: the profile an `auto` source detected, a page size the server took.
  let profileName: LdapProfileName | undefined = options.profile === 'auto' ? undefined : options.profile;
  let pageSize = options.pageSize;

  async function* read(query: SourceQuery, readOptions: ReadOptions): AsyncGenerator<RawRecord[]> {
    const budget = new ReadBudget(readOptions);
    const { client, guarded, close } = await openLdapConnection(spec, options, settings, source, budget);
    try {
      profileName ??= await guarded(() => detectProfile(client));
      const profile = LDAP_PROFILES[profileName];
      const map = attributeMapFor(options, profileName);
      const pages = pagedSearch({
        pageSize: () => pageSize,
        lowered: (size) => (pageSize = size),
        search: (size) => {
          const search = client.searchPaginated(
            options.baseDn,
            {
              scope: 'sub',
              filter: ldapFilterFor(query, options.objectClass ?? profile.objectClass, map, profile),
              attributes: requestedAttributes(profile, map),
              explicitBufferAttributes: binaryNames(profile, map),
              paged: { pageSize: size },
              timeLimit: Math.max(1, Math.ceil(budget.remaining() / 1000)),
            },
            profile.controls(),
          );
          return search[Symbol.asyncIterator]();
        },
      });
      yield* providerPages<Pages>({
        source,
        first: pages,
        settings,
        ...(query.operation === 'search_people' && query.limit !== undefined ? { limit: query.limit } : {}),
        toRecord: ldapEntryMapper(source, options.baseDn, map, new Date().toISOString(), profile),
        fetchPage: (iterator) =>
          guarded(async () => {
            const step = await iterator.next();
            return step.done === true
              ? { items: [], next: undefined }
              : { items: step.value.searchEntries, next: iterator };
          }),
      });
    } finally {
      await close();
    }
  }

  return {
    source,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    read,
  };
}
