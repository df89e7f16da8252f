/**
 * The one table of cacheable kinds: for each adapter kind, how its provider reports what changed, and how a
 * cached read selects the people a live read of that kind selects.
 *
 * - Change feeds: every kind reads through its own adapter (`adapter-feed.ts`), so its read path still loads on
 *   first use. Entra reads Graph's delta query (`entra/delta-feed.ts`), loaded on its first sync; an Active
 *   Directory source also reads its tombstones (`ldap/tombstones.ts`).
 * - Matching: a kind whose live search selects other people than the kernel's matcher would (Graph's and Okta's
 *   prefix matches, LDAP's attributes) gives the same match made on mapped records, exported next to the code
 *   that builds its provider query; every other kind's live read matches as the kernel's matcher does (SCIM's
 *   `co` on display name, user name and emails; a fixture or HTTP JSON source matched here).
 */
import type { SourceAdapter, SourceQuery } from '../../federation/index.js';
import { entraDeltaFeed } from '../entra/delta.js';
import { graphRequestFor } from '../entra/graph-query.js';
import type { RecordMatch } from '../kernel/local-match.js';
import { ldapChangeFeed } from '../ldap/delta.js';
import { ldapRecordMatch } from '../ldap/search-match.js';
import { oktaRecordMatch } from '../okta/search.js';
import type { SourceSpec } from '../registry/types.js';
import { adapterChangeFeed } from './adapter-feed.js';
import type { ChangeFeed } from './port.js';

/** Builds the change feed of one source from its spec and its (already built) adapter. */
export type ChangeFeedFactory = (spec: SourceSpec, adapter: SourceAdapter) => ChangeFeed;

/**
 * A kind's own selector of mapped records for `query`, or undefined where the kernel's matcher answers as
 * the kind's live read does.
 */
export type KindMatch = (query: SourceQuery) => RecordMatch | undefined;

/** What the cache knows of one adapter kind. */
export interface CacheKind {
  readonly feed: ChangeFeedFactory;
  /** @default the kernel's matcher for every query */
  readonly match?: KindMatch;
}

/** Adapter kind → its change feed and matcher. A kind missing here cannot be cached. */
export const CACHE_KINDS: Readonly<Record<string, CacheKind>> = {
  fixture: { feed: (_spec, adapter) => adapterChangeFeed(adapter) },
  scim: { feed: (_spec, adapter) => adapterChangeFeed(adapter) },
  ldap: {
    // Active Directory's tombstones; a standard directory (or a source built outside the factory) has none.
    feed: ldapChangeFeed,
    // A substring search, but on Active Directory's account names too, which the kernel's matcher does not read.
    match: ldapRecordMatch,
  },
  entra: {
    // Graph's delta query; a source built outside the `entra` factory reads its listing instead.
    feed: (spec, adapter) => entraDeltaFeed(spec) ?? adapterChangeFeed(adapter),
    match: (query) => graphRequestFor(query).local,
  },
  // Okta reports no deletions: a deprovisioned user is a change of status like any other, kept as a live read
  // keeps it; a user deleted at Okta leaves at the next full sync's sweep.
  okta: { feed: (_spec, adapter) => adapterChangeFeed(adapter), match: oktaRecordMatch },
  'http-json': { feed: (_spec, adapter) => adapterChangeFeed(adapter) },
};

const kindOf = (adapter: string): CacheKind | undefined =>
  Object.hasOwn(CACHE_KINDS, adapter) ? CACHE_KINDS[adapter] : undefined;

/** The change feed of a source, or `undefined` when its kind has none. */
export function changeFeedFor(spec: SourceSpec, adapter: SourceAdapter): ChangeFeed | undefined {
  return kindOf(spec.adapter)?.feed(spec, adapter);
}

/** The matcher a cached read of an `adapter` kind uses, or `undefined` for the kernel's. */
export function kindMatchFor(adapter: string): KindMatch | undefined {
  return kindOf(adapter)?.match;
}
