/**
 * The one table of change feeds: for each adapter kind, how its provider reports what changed. Every kind reads
 * through its own adapter (`adapter-feed.ts`), so its read path still loads on first use; Okta names its
 * deprovisioned users, which the feed applies as deletes. Entra reads Graph's delta query (`entra/delta-feed.ts`),
 * loaded on its first sync; an Active Directory source also reads its tombstones (`ldap/tombstones.ts`).
 */
import type { RawRecord, SourceAdapter } from '../../federation/index.js';
import { entraDeltaFeed } from '../entra/delta.js';
import { ldapChangeFeed } from '../ldap/delta.js';
import type { SourceSpec } from '../registry/types.js';
import { adapterChangeFeed } from './adapter-feed.js';
import type { ChangeFeed } from './port.js';

/** Builds the change feed of one source from its spec and its (already built) adapter. */
export type ChangeFeedFactory = (spec: SourceSpec, adapter: SourceAdapter) => ChangeFeed;

// Okta keeps a deactivated user as `DEPROVISIONED` (the adapter's `okta_status`) until it is deleted.
const deprovisioned = (record: RawRecord): boolean => record.attributes?.['okta_status'] === 'DEPROVISIONED';

/** Adapter kind → its change feed. A kind missing here cannot be cached. */
export const CHANGE_FEEDS: Readonly<Record<string, ChangeFeedFactory>> = {
  fixture: (_spec, adapter) => adapterChangeFeed(adapter),
  scim: (_spec, adapter) => adapterChangeFeed(adapter),
  // Active Directory's tombstones; a standard directory (or a source built outside the factory) has none.
  ldap: ldapChangeFeed,
  // Graph's delta query; a source built outside the `entra` factory reads its listing instead.
  entra: (spec, adapter) => entraDeltaFeed(spec) ?? adapterChangeFeed(adapter),
  okta: (_spec, adapter) => adapterChangeFeed(adapter, { isGone: deprovisioned }),
  'http-json': (_spec, adapter) => adapterChangeFeed(adapter),
};

/** The change feed of a source, or `undefined` when its kind has none. */
export function changeFeedFor(spec: SourceSpec, adapter: SourceAdapter): ChangeFeed | undefined {
  return Object.hasOwn(CHANGE_FEEDS, spec.adapter) ? CHANGE_FEEDS[spec.adapter]?.(spec, adapter) : undefined;
}
