/**
 * The two sides of a source-cache oracle: what a source's baseline holds, and what a fresh live listing of the
 * same adapter reads, put in one order. Where a provider gives each record its change time (SCIM, LDAP, Okta)
 * the records must agree whole ({@link inIdOrder}); where `observed_at` is the time of the read (Graph), in
 * everything else ({@link byId}).
 */
import type { RawRecord, SourceAdapter } from '../../lambda/federation/index.js';
import type { BaselineStore } from '../../lambda/sources/cache/index.js';

/** A record without the time it was read: what a baseline and a live read must agree on. */
export const content = ({ observed_at: _observed, ...rest }: RawRecord): Omit<RawRecord, 'observed_at'> =>
  rest;

/** Records by `external_id`. */
export const inIdOrder = (records: readonly RawRecord[]): RawRecord[] =>
  [...records].sort((a, b) => a.external_id.localeCompare(b.external_id));

/** Records by `external_id`, without their read time. */
export const byId = (records: readonly RawRecord[]): Omit<RawRecord, 'observed_at'>[] =>
  inIdOrder(records).map(content);

/** Every record of `sourceId`'s baseline. */
export async function baselineRecords(store: BaselineStore, sourceId: string): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const page of store.readPages(sourceId, 100, new AbortController().signal)) out.push(...page);
  return out;
}

/** A fresh `list_people` of `adapter`, straight from its provider. */
export async function liveListing(adapter: SourceAdapter): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  const options = { signal: new AbortController().signal, deadline: Date.now() + 30_000 };
  for await (const page of adapter.read({ operation: 'list_people' }, options)) out.push(...page);
  return out;
}
