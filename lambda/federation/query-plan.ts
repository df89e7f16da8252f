/**
 * What the engine itself does per operation: `search_people` caps each source at `limit`; `get_person`
 * resolves the record_ref (adapters cannot: the ref digests a cross-source cluster's first key).
 */
import { federate } from './identity.js';
import type { SourceQuery } from './port.js';
import type { FederatedRecord } from './types.js';
import type { NormalizedRecord } from './validate.js';

/** The engine's part of one operation. */
export interface QueryPlan {
  /** Most records one source may deliver; the read stops (and completes) once reached. */
  readonly perSourceLimit: number;
  /**
   * The records of one federated delivery page that are published (all, except for `get_person`). `chunk`
   * holds the chunk's records as they stand alone, `page` the same records after source-local federation.
   */
  publishable(chunk: readonly FederatedRecord[], page: FederatedRecord[]): FederatedRecord[];
  /** The authoritative final records from every delivered record. */
  finalize(delivered: readonly NormalizedRecord[]): FederatedRecord[];
}

const everything: QueryPlan = {
  perSourceLimit: Number.POSITIVE_INFINITY,
  publishable: (_chunk, page) => page,
  finalize: (delivered) => federate(delivered),
};

/**
 * `get_person`: an anchor is a record whose own single-key ref equals the requested ref. Pages publish the
 * page-local clusters holding an anchor; the final result is the one cluster carrying the ref (or, if more
 * sources joined since the ref was issued and its first key changed, the cluster holding the anchor).
 */
function getPerson(recordRef: string): QueryPlan {
  return {
    perSourceLimit: Number.POSITIVE_INFINITY,
    publishable(chunk, page) {
      const anchors = new Set(chunk.filter((r) => r.record_ref === recordRef).map((r) => r.sources[0]));
      if (anchors.size === 0) return [];
      return page.filter((record) => record.sources.some((entry) => anchors.has(entry)));
    },
    finalize(delivered) {
      const all = federate(delivered);
      const exact = all.find((record) => record.record_ref === recordRef);
      if (exact !== undefined) return [exact];
      const anchors = new Set(
        delivered.filter((r) => r.record.record_ref === recordRef).map((r) => r.record.sources[0]),
      );
      const held = all.find((record) => record.sources.some((entry) => anchors.has(entry)));
      return held === undefined ? [] : [held];
    },
  };
}

/** The plan for `query`. */
export function planFor(query: SourceQuery): QueryPlan {
  switch (query.operation) {
    case 'search_people':
      return query.limit === undefined ? everything : { ...everything, perSourceLimit: query.limit };
    case 'get_person':
      return getPerson(query.record_ref);
    case 'list_people':
      return everything;
  }
}
