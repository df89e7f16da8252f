/**
 * A change feed over a source's own read path: a full read is `list_people`, a delta is
 * `list_people {updated_since: watermark}`. Each adapter already turns `updated_since` into its provider's
 * filter (SCIM `meta.lastModified ge`, LDAP `modifyTimestamp>=` or AD `whenChanged>=`, Okta `lastUpdated ge`),
 * escapes it, and steps down to a full listing matched here when the provider refuses the filter; every page
 * goes through the provider kernel's deadline and rate-limit rules. So this feed adds no provider request of
 * its own.
 *
 * Watermark: an ISO 8601 instant, the earlier of the latest `observed_at` the read saw and the read's start on
 * this clock less {@link CLOCK_SKEW_MS}. A change made while the read ran carries a provider time at or after
 * the read's start, which is at or after every record time it saw, so the next `ge` delta includes it; the skew
 * margin covers a provider clock somewhat behind ours. Re-delivered records are idempotent upserts.
 *
 * Such providers report no deletions (`tombstones: false`): the sync's periodic full read and sweep remove
 * what is gone. A person a provider still lists with a status saying they left (Okta's `DEPROVISIONED`) is
 * stored like any other change, as a live read shows them. A kind that keeps its deletions
 * apart (Active Directory's tombstones) passes `deletions`: each delta reads them first, so a person deleted
 * and then created again under the same id ends up present; the feed still asks for the periodic full read
 * (`sweeps`), since a person moved out of the source's scope is in neither read.
 *
 * Resuming a full read: a listing cannot be re-entered mid-way on every kind (an LDAP paged-results cookie
 * lives in its connection), so the checkpoint counts the provider pages already stored; a resumed read skips
 * them without writing them again.
 */
import type { ReadOptions, SourceAdapter, SourceQuery } from '../../federation/index.js';
import type { ChangeBatch, ChangeFeed } from './port.js';

/** Where a provider keeps what it deleted (Active Directory's tombstones). */
export interface DeletionSource {
  /** Whether deletions are being reported (false once the provider showed that it cannot say). */
  readonly reported: boolean;
  /** The external ids of people deleted since `watermark`, page by page. */
  deletedSince(watermark: string, options: ReadOptions): AsyncIterable<readonly string[]>;
}

/** How far behind this clock a provider's may run without a change being missed. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** Options of {@link adapterChangeFeed}. */
export interface AdapterFeedOptions {
  /** Deletions the provider keeps apart from its people, read at the start of each delta. */
  readonly deletions?: DeletionSource;
  /** @default Date.now */
  readonly now?: () => number;
}

interface Checkpoint {
  /** Provider pages already delivered. */
  readonly pages: number;
  /** The watermark the resumed read will end with (fixed by the read's first invocation). */
  readonly start: string;
}

/** A change feed that reads through `adapter`. */
export function adapterChangeFeed(adapter: SourceAdapter, options: AdapterFeedOptions = {}): ChangeFeed {
  const now = options.now ?? Date.now;
  const { deletions } = options;
  return {
    get tombstones() {
      return deletions?.reported ?? false;
    },
    ...(deletions === undefined ? {} : { sweeps: true }),
    async *changes(watermark, readOptions: ReadOptions, resumeFrom) {
      const resumed = watermark === undefined ? parseCheckpoint(resumeFrom) : undefined;
      const start = resumed?.start ?? new Date(now() - CLOCK_SKEW_MS).toISOString();
      const query: SourceQuery =
        watermark === undefined
          ? { operation: 'list_people' }
          : { operation: 'list_people', updated_since: watermark };
      if (watermark !== undefined && deletions !== undefined)
        for await (const deletes of deletions.deletedSince(watermark, readOptions))
          yield { upserts: [], deletes };
      let latest: string | undefined;
      let pages = 0;
      for await (const page of adapter.read(query, readOptions)) {
        pages += 1;
        if (pages <= (resumed?.pages ?? 0)) continue;
        for (const record of page)
          if (latest === undefined || record.observed_at > latest) latest = record.observed_at;
        const batch: ChangeBatch = { upserts: page, deletes: [] };
        yield watermark === undefined ? { ...batch, checkpoint: JSON.stringify({ pages, start }) } : batch;
      }
      yield { upserts: [], deletes: [], watermark: earlier(start, latest) };
    },
  };
}

function earlier(start: string, latest: string | undefined): string {
  if (latest === undefined || Number.isNaN(Date.parse(latest))) return start;
  return Date.parse(latest) < Date.parse(start) ? new Date(Date.parse(latest)).toISOString() : start;
}

function parseCheckpoint(text: string | undefined): Checkpoint | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Checkpoint>;
    if (Number.isSafeInteger(value.pages) && typeof value.start === 'string')
      return { pages: value.pages!, start: value.start };
  } catch {
    // Another feed's checkpoint (the source changed kind): start the read again.
  }
  return undefined;
}
