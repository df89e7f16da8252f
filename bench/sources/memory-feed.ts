/**
 * A provider's change feed over people held in memory, for benchmarks of the sync worker and the cached read
 * path without a provider's time in the figures: a full read in pages of 100 (resumable at a page), and per
 * watermark every change made since.
 */
import type { RawRecord } from '../../lambda/federation/index.js';
import type { ChangeBatch, ChangeFeed } from '../../lambda/sources/cache/index.js';

const PAGE = 100;

/** A feed over `records`; `tombstones` says whether it reports deletions (Okta, Entra) or not (SCIM, LDAP). */
export function memoryFeed(records: readonly RawRecord[], tombstones: boolean) {
  const current = new Map(records.map((record) => [record.external_id, record]));
  // The watermark is how many changes the feed had made when it was handed out.
  const log: { upserts: RawRecord[]; deletes: string[] }[] = [];

  async function* changes(
    watermark: string | undefined,
    _options: unknown,
    resumeFrom?: string,
  ): AsyncGenerator<ChangeBatch> {
    await Promise.resolve();
    const mark = String(log.length);
    if (watermark !== undefined) {
      const since = log.slice(Number(watermark));
      const deletes = tombstones ? since.flatMap((change) => change.deletes) : [];
      yield { upserts: since.flatMap((change) => change.upserts), deletes, watermark: mark };
      return;
    }
    const all = [...current.values()];
    for (let at = Number(resumeFrom ?? 0); at < all.length; at += PAGE) {
      const end = Math.min(at + PAGE, all.length);
      const last = end === all.length ? { watermark: mark } : {};
      yield { upserts: all.slice(at, end), deletes: [], checkpoint: String(end), ...last };
    }
  }

  const feed: ChangeFeed = { tombstones, changes };
  return {
    feed,
    /** The people the provider holds now. */
    people: (): RawRecord[] => [...current.values()],
    /** Changes and deletes people at the provider. */
    change(changed: readonly RawRecord[], deleted: readonly string[]): void {
      for (const record of changed) current.set(record.external_id, record);
      for (const id of deleted) current.delete(id);
      log.push({ upserts: [...changed], deletes: [...deleted] });
    },
  };
}
