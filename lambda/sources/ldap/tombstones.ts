/**
 * Active Directory's deletions, read from its tombstones. A DC keeps a deleted object for the tombstone
 * lifetime (180 days by default) as a tombstone: `isDeleted: TRUE`, moved into its naming context's Deleted
 * Objects container, keeping `objectGUID`, `objectSid`, `sAMAccountName`, `lastKnownParent` and a `whenChanged`
 * set when it was deleted. Under the Show Deleted control a one-level search of that container for users
 * changed since the watermark (the same `whenChanged >=` assertion the live delta uses) names who was deleted;
 * each is reported by the id the live read gives the person (the mapped `external_id`, `objectGUID` by
 * default, read through the same binary form).
 *
 * - Only tombstones whose `lastKnownParent` lies under the base DN count: the rest of the domain's deletions
 *   are none of this source's. When the parent was deleted too (an OU deleted with its users), AD points
 *   `lastKnownParent` at the parent's own tombstone: its `lastKnownParent` is followed, up to
 *   {@link MAX_DELETED_ANCESTORS} levels, to where the tree stood.
 * - The container is found by its well-known GUID under the naming context holding the base DN, never by name.
 * - By default only administrators may list the container. An account that cannot (the container reads back
 *   without `isDeleted`, or the search is refused) is remembered for the warm function: the source reports no
 *   deletions, said once in an info line (`provider_tombstones_unreadable`), and its periodic full sync sweeps
 *   instead. A directory that is not a domain controller (an `auto` profile that found another) reports none,
 *   silently.
 */
import { AndFilter, EqualityFilter, GreaterThanEqualsFilter, NotFilter } from 'ldapts';
import type { Client, Entry, SearchResult } from 'ldapts';
import type { ReadOptions, SourceRef } from '../../federation/index.js';
import { ReadBudget } from '../kernel/index.js';
import type { ProviderSettings } from '../kernel/index.js';
import type { SourceSpec } from '../registry/types.js';
import {
  DELETED_OBJECTS_WKGUID,
  DomainScopeControl,
  isActiveDirectoryRootDse,
  ShowDeletedControl,
} from './active-directory.js';
import { openLdapConnection } from './connection.js';
import { isUnderBase, normalDn } from './dn.js';
import { entryValue } from './entry-record.js';
import { attributeMapFor } from './options.js';
import type { LdapSourceOptions } from './options.js';
import { pagedSearch } from './paged-search.js';
import { binaryNames, LDAP_PROFILES } from './profiles.js';

/** What a reader learned of its directory, once per warm function. */
type Learned =
  | { readonly tombstones: true; readonly container: string }
  | { readonly tombstones: false; readonly why: 'not_active_directory' | 'tombstones_not_readable' };

/**
 * Result codes that mean "this account may not see tombstones": 12 unavailableCriticalExtension (no Show
 * Deleted), 32 noSuchObject (the container is hidden), 50 insufficientAccessRights.
 */
const UNREADABLE = new Set([12, 32, 50]);
/** How many deleted ancestors a tombstone's place is followed through before it is taken as out of scope. */
const MAX_DELETED_ANCESTORS = 8;

/** A source's tombstone reader. */
export interface TombstoneReader {
  /** False once the reader learned that the directory shows it no tombstones. */
  readonly reported: boolean;
  /** The external ids of the source's people deleted since `watermark` (an ISO instant), page by page. */
  deletedSince(watermark: string, options: ReadOptions): AsyncGenerator<string[]>;
}

const eq = (attribute: string, value: string) => new EqualityFilter({ attribute, value });
const resultCode = (error: unknown) => (error as { code?: unknown } | undefined)?.code;

/** The naming context holding `baseDn`: the longest the rootDSE lists that contains it. */
function namingContextOf(root: Entry, baseDn: string): string | undefined {
  const key = Object.keys(root).find((k) => k.toLowerCase() === 'namingcontexts');
  const value = key === undefined ? [] : root[key];
  const contexts = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  return contexts
    .filter((nc) => isUnderBase(baseDn, nc))
    .sort((a, b) => b.length - a.length)
    .at(0);
}

/** Reads the rootDSE and looks for a Deleted Objects container this account can read. */
async function learn(client: Client, options: LdapSourceOptions): Promise<Learned> {
  const root = await client.search('', {
    scope: 'base',
    filter: '(objectClass=*)',
    attributes: ['supportedCapabilities', 'forestFunctionality', 'namingContexts'],
  });
  const entry = root.searchEntries[0];
  if (entry === undefined || !isActiveDirectoryRootDse(entry))
    return { tombstones: false, why: 'not_active_directory' };
  const nc = namingContextOf(entry, options.baseDn);
  if (nc === undefined) return { tombstones: false, why: 'tombstones_not_readable' };
  try {
    const found = await client.search(
      `<WKGUID=${DELETED_OBJECTS_WKGUID},${nc}>`,
      { scope: 'base', filter: '(objectClass=*)', attributes: ['isDeleted'] },
      [new ShowDeletedControl()],
    );
    const container = found.searchEntries[0];
    // Without the right to read it, the container is still listed (its parent is readable), but bare.
    if (container !== undefined && String(container['isDeleted']).toUpperCase() === 'TRUE')
      return { tombstones: true, container: container.dn };
  } catch (error) {
    const code = resultCode(error);
    if (typeof code !== 'number' || !UNREADABLE.has(code)) throw error;
  }
  return { tombstones: false, why: 'tombstones_not_readable' };
}

/** The tombstone reader of one Active Directory (or `auto`) source. */
export function createTombstoneReader(
  spec: SourceSpec,
  options: LdapSourceOptions,
  settings: ProviderSettings = {},
): TombstoneReader {
  const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
  const profile = LDAP_PROFILES['active-directory'];
  const map = attributeMapFor(options, 'active-directory');
  let learned: Learned | undefined;
  let pageSize = options.pageSize;

  const unreadable = (why: Extract<Learned, { tombstones: false }>['why']): Learned => {
    if (why === 'tombstones_not_readable')
      settings.log?.({ event: 'provider_tombstones_unreadable', source, reason: why });
    return { tombstones: false, why };
  };

  /**
   * Where the tree holding `parent` stood before it was deleted: `parent` itself when it is not a tombstone,
   * else its own last parent, followed upwards (see the module comment). Answers are kept for one read.
   */
  async function livePlace(
    client: Client,
    parent: string,
    container: string,
    known: Map<string, Promise<string | undefined>>,
    depth = 0,
  ): Promise<string | undefined> {
    if (!isUnderBase(parent, container)) return parent;
    if (depth >= MAX_DELETED_ANCESTORS) return undefined;
    const key = normalDn(parent);
    let place = known.get(key);
    if (place === undefined) {
      place = client
        .search(parent, { scope: 'base', filter: '(objectClass=*)', attributes: ['lastKnownParent'] }, [
          new ShowDeletedControl(),
        ])
        .then(({ searchEntries: [tombstone] }) => {
          const above =
            tombstone === undefined ? undefined : entryValue(tombstone, 'lastKnownParent', profile);
          return above === undefined ? undefined : livePlace(client, above, container, known, depth + 1);
        })
        // A parent's tombstone already collected (result 32): where it stood is unknown, so out of scope.
        .catch((error: unknown) => {
          if (resultCode(error) === 32) return undefined;
          throw error;
        });
      known.set(key, place);
    }
    return place;
  }

  async function* deletedSince(watermark: string, readOptions: ReadOptions): AsyncGenerator<string[]> {
    if (learned?.tombstones === false || Number.isNaN(Date.parse(watermark))) return;
    const budget = new ReadBudget(readOptions);
    const { client, guarded, close } = await openLdapConnection(spec, options, settings, source, budget);
    try {
      if (learned === undefined) {
        const found = await guarded(() => learn(client, options));
        learned = found.tombstones ? found : unreadable(found.why);
      }
      if (!learned.tombstones) return;
      const { container } = learned;
      const filter = new AndFilter({
        filters: [
          eq('isDeleted', 'TRUE'),
          eq('objectClass', options.objectClass ?? profile.objectClass),
          // A tombstone keeps no objectCategory: leave out computer accounts (a subclass of user) instead.
          new NotFilter({ filter: eq('objectClass', 'computer') }),
          new GreaterThanEqualsFilter({ attribute: profile.changed, value: profile.changedSince(watermark) }),
        ],
      });
      const pages = pagedSearch({
        pageSize: () => pageSize,
        lowered: (size) => (pageSize = size),
        search: (size) => {
          const search = client.searchPaginated(
            container,
            {
              scope: 'one',
              filter,
              attributes: [map.external_id, 'lastKnownParent'],
              explicitBufferAttributes: binaryNames(profile, map),
              paged: { pageSize: size },
              timeLimit: Math.max(1, Math.ceil(budget.remaining() / 1000)),
            },
            [new ShowDeletedControl(), new DomainScopeControl()],
          );
          return search[Symbol.asyncIterator]();
        },
      });
      const known = new Map<string, Promise<string | undefined>>();
      const inScope = async (entry: Entry): Promise<boolean> => {
        const parent = entryValue(entry, 'lastKnownParent', profile);
        const place = parent === undefined ? undefined : await livePlace(client, parent, container, known);
        return place !== undefined && isUnderBase(place, options.baseDn);
      };
      for (;;) {
        const step: IteratorResult<SearchResult> = await guarded(() => pages.next());
        if (step.done === true) return;
        const ids: string[] = [];
        for (const entry of step.value.searchEntries) {
          const id = entryValue(entry, map.external_id, profile);
          if (id !== undefined && (await guarded(() => inScope(entry)))) ids.push(id);
        }
        if (ids.length > 0) yield ids;
      }
    } finally {
      await close();
    }
  }

  return {
    get reported() {
      return learned?.tombstones !== false;
    },
    deletedSince,
  };
}
