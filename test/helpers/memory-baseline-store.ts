/**
 * A {@link BaselineStore} in memory: for unit tests and `npm run test:unit` (no Java), with the same
 * semantics as the DynamoDB store (records in external-id order, lookups by the identity keys, a lease that
 * expires, sweep by sync id). Not for production: it lives as long as the process.
 */
import {
  compareText,
  normaliseEmail,
  normalisePhone,
  singleKeyRecordRef,
} from '../../lambda/federation/index.js';
import type {
  BaselineLookup,
  BaselineRecord,
  BaselineState,
  BaselineStore,
  SyncLease,
} from '../../lambda/sources/cache/index.js';

interface Entry {
  record: BaselineRecord;
  syncId?: string;
}

/** An in-memory baseline store; `now` drives lease expiry. */
export function createMemoryBaselineStore(now: () => number = Date.now): BaselineStore {
  const states = new Map<string, BaselineState>();
  const leases = new Map<string, SyncLease>();
  const records = new Map<string, Map<string, Entry>>();
  const of = (sourceId: string): Map<string, Entry> => {
    let map = records.get(sourceId);
    if (map === undefined) records.set(sourceId, (map = new Map<string, Entry>()));
    return map;
  };
  return {
    readState: (sourceId) => Promise.resolve(states.get(sourceId)),
    writeState: (state) => {
      states.set(state.sourceId, { ...state });
      return Promise.resolve();
    },
    acquireLease(sourceId, owner, ttlMs) {
      const held = leases.get(sourceId);
      if (held !== undefined && held.owner !== owner && held.expiresAt >= now())
        return Promise.resolve(undefined);
      const lease = { sourceId, owner, expiresAt: now() + ttlMs };
      leases.set(sourceId, lease);
      return Promise.resolve(lease);
    },
    releaseLease(lease) {
      if (leases.get(lease.sourceId)?.owner === lease.owner) leases.delete(lease.sourceId);
      return Promise.resolve();
    },
    async *readPages(sourceId, pageSize, _signal, firstPageSize = pageSize) {
      const sorted = [...of(sourceId).keys()].sort(compareText);
      for (let at = 0, size = firstPageSize; at < sorted.length; at += size, size = pageSize)
        yield sorted.slice(at, at + size).map((id) => of(sourceId).get(id)!.record);
      await Promise.resolve();
    },
    lookup(sourceId, lookup: BaselineLookup) {
      const hits = [...of(sourceId).values()].filter(({ record }) => {
        const email = normaliseEmail(record.email);
        const phone = normalisePhone(record.phone);
        return (
          (lookup.recordRef !== undefined && singleKeyRecordRef(record) === lookup.recordRef) ||
          (lookup.email !== undefined && email === lookup.email) ||
          (lookup.phone !== undefined && phone === lookup.phone)
        );
      });
      return Promise.resolve(hits.map((entry) => entry.record));
    },
    put(sourceId, list, syncId) {
      for (const record of list)
        of(sourceId).set(record.external_id, { record, ...(syncId === undefined ? {} : { syncId }) });
      return Promise.resolve();
    },
    remove(sourceId, ids) {
      for (const id of ids) of(sourceId).delete(id);
      return Promise.resolve();
    },
    sweep(sourceId, syncId) {
      let removed = 0;
      for (const [id, entry] of of(sourceId))
        if (entry.syncId !== syncId) {
          of(sourceId).delete(id);
          removed += 1;
        }
      return Promise.resolve(removed);
    },
    purge(sourceId) {
      records.delete(sourceId);
      states.delete(sourceId);
      leases.delete(sourceId);
      return Promise.resolve();
    },
    sourceIds: () => Promise.resolve([...states.keys()].sort(compareText)),
  };
}
