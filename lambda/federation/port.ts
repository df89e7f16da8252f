/**
 * The SourceAdapter port (DESIGN §4): what an adapter receives and what it yields. Adapters never see
 * other sources, the caller's tokens or MCP; they see one query, an abort signal and a deadline.
 */
import type { SourceErrorCode, SourceRef } from './types.js';

/** `search_people {query, limit?}`: adapters apply their own text search; `limit` caps each source. */
export interface SearchPeopleQuery {
  readonly operation: 'search_people';
  readonly query: string;
  /** Most records one source may deliver; the engine stops reading a source once it has delivered this many. */
  readonly limit?: number;
}

/**
 * `get_person {record_ref}`. A record_ref digests the cluster's first provenance key, so no single source can
 * resolve it: adapters return candidate records (all of them, or those they can narrow to), and the engine keeps
 * the cluster that carries the ref (see docs/federation.md).
 */
export interface GetPersonQuery {
  readonly operation: 'get_person';
  readonly record_ref: string;
}

/** `list_people {updated_since?}`: adapters return records observed at or after `updated_since` (ISO 8601). */
export interface ListPeopleQuery {
  readonly operation: 'list_people';
  readonly updated_since?: string;
}

/** The federated read operations of DESIGN §5, as sources receive them. */
export type SourceQuery = SearchPeopleQuery | GetPersonQuery | ListPeopleQuery;

/**
 * One record as a provider returned it. It claims its own provenance; the engine checks the claim against
 * the source being read before anything is published (§4 "validated against the authorized source").
 */
export interface RawRecord {
  readonly source_type: string;
  readonly source_identity: string;
  readonly external_id: string;
  readonly record_type: string;
  /** ISO 8601 instant the provider last observed/updated the record; the latest wins scalar precedence. */
  readonly observed_at: string;
  readonly capabilities: readonly string[];
  readonly version?: string | null;
  readonly display_name?: string | null;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly lifecycle?: string | null;
  readonly attributes?: Readonly<Record<string, unknown>>;
}

/** What the engine hands each read. */
export interface ReadOptions {
  /** Fires on source timeout, operation deadline or client disconnect; a sleeping read must wake on it. */
  readonly signal: AbortSignal;
  /** Absolute epoch milliseconds by which this source must be done (its own timeout or the operation budget). */
  readonly deadline: number;
}

/**
 * One step of a layered read (a cached source, `lambda/sources/cache`):
 * - `baseline`: records answered from a stored baseline that was current at `as_of` (ISO 8601);
 * - `delta`: the provider's changes since that baseline, applied as one step: every earlier record of the
 *   source whose `external_id` is in `retracted` (deleted, changed, or no longer matching) leaves the result,
 *   then `records` (the changed and added records that match) join it. The delta is the read's last step;
 * - `live`: records read from the provider, as `read` yields them (a stale or missing baseline).
 */
export type LayeredPage =
  | { readonly layer: 'baseline'; readonly as_of: string; readonly records: readonly RawRecord[] }
  | {
      readonly layer: 'delta';
      readonly retracted: readonly string[];
      readonly records: readonly RawRecord[];
    }
  | { readonly layer: 'live'; readonly records: readonly RawRecord[] };

/** Identity keys a keyed read looks people up by, normalised as the identity rules normalise them. */
export interface PersonKeys {
  /** Own single-key record refs (`singleKeyRecordRef`). */
  readonly recordRefs: readonly string[];
  readonly emails: readonly string[];
  readonly phones: readonly string[];
}

/**
 * One `get_person`'s keyed access to a source (a cached source's baseline plus its delta): the engine asks it
 * for the people holding given keys until the requested person's cluster is closed, instead of listing the
 * source.
 */
export interface KeyedReader {
  /** The instant the baseline answering `find` was current (ISO 8601). */
  readonly as_of: string;
  /** Whether the provider's changes since the baseline are applied to what `find` returns. */
  readonly deltaApplied: boolean;
  /** The code of the delta's failure, when it failed: `find` then answers from the baseline alone. */
  readonly error?: SourceErrorCode;
  find(keys: PersonKeys): Promise<readonly RawRecord[]>;
}

/** A record source. `read` yields provider pages; any size is fine, the engine re-chunks them. */
export interface SourceAdapter {
  readonly source: SourceRef;
  /** This source's own timeout; overrides the operation's `sourceTimeoutMs`. */
  readonly timeoutMs?: number;
  read(query: SourceQuery, options: ReadOptions): AsyncIterable<readonly RawRecord[]>;
  /**
   * A read in layers, for a source that can answer from a baseline first. When present the engine calls it
   * instead of `read`, so the final result and its metadata can say which layer each record came from and
   * drop what the delta retracted. Plain adapters leave it out.
   */
  readonly readLayers?: (query: SourceQuery, options: ReadOptions) => AsyncIterable<LayeredPage>;
  /**
   * A keyed reader for `get_person`, or undefined when the source cannot answer by keys now (then the engine
   * reads it as any other source).
   */
  readonly openKeyed?: (options: ReadOptions) => Promise<KeyedReader | undefined>;
}
