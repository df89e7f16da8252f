/**
 * Wire shapes of federated records and result metadata, exactly as `bos/source-results/v1` §3 and §5 print
 * them (snake_case). Property order in these interfaces is the order the engine writes, so JSON output
 * matches the contract's examples byte for byte.
 */

/** The five source terminal error codes of `bos/source-results/v1` §5; nothing else reaches a client. */
export const SOURCE_ERROR_CODES = [
  'source_timeout',
  'source_identity_mismatch',
  'provider_authorization_required',
  'rate_limited',
  'source_unavailable',
] as const;

/** One of {@link SOURCE_ERROR_CODES}. */
export type SourceErrorCode = (typeof SOURCE_ERROR_CODES)[number];

/** The complete source pair a page, terminal or provenance entry belongs to (§4 "the complete source pair"). */
export interface SourceRef {
  readonly source_type: string;
  readonly source_identity: string;
}

/** One provenance entry of a federated record (§3). `version` is optional and nullable; we always write it. */
export interface ProvenanceEntry {
  readonly source_type: string;
  readonly source_identity: string;
  readonly external_id: string;
  readonly record_type: string;
  /** As the provider stated it, e.g. `2026-10-08T12:00:00Z`. */
  readonly observed_at: string;
  readonly capabilities: readonly string[];
  readonly version: string | null;
}

/**
 * The key kinds that joined provenance entries into one record (DESIGN §4 identity rules 2 and 3). Rule 1
 * (same source_type, source_identity, external_id) collapses versions into one entry, so it never joins two.
 */
export type MatchKind = 'email' | 'phone';

/** Why a multi-provenance record was merged: the key kinds that joined it and how many entries it holds. */
export interface IdentityMatch {
  readonly matched_on: readonly MatchKind[];
  /** The number of provenance entries (`sources.length`) merged into the record. */
  readonly source_count: number;
}

/** A federated person record (§3): nullable scalars, a non-empty `sources` array and an attributes object. */
export interface FederatedRecord {
  readonly record_ref: string;
  readonly display_name: string | null;
  readonly email: string | null;
  readonly phone: string | null;
  readonly lifecycle: string | null;
  readonly sources: readonly ProvenanceEntry[];
  readonly identity_match: IdentityMatch | null;
  readonly attributes: Readonly<Record<string, unknown>>;
}

/** One source observed by the operation, with when it was observed (`+00:00` form, §5 final frame). */
export interface SourceProvenance {
  readonly source_type: string;
  readonly source_identity: string;
  readonly observed_at: string;
}

/** One failed source in the final metadata (§5: "entries contain source and error.code"). */
export interface SourceErrorEntry {
  readonly source: SourceRef;
  readonly error: { readonly code: SourceErrorCode };
}

/**
 * How the final result was retrieved (docs/bos.md "Reading a cached source"): `live_provider` when no source answered
 * from a baseline; `cache_baseline_with_delta` when some did and every one of them applied its delta (as
 * current as a live read); `cache_baseline` when some source answered from its baseline alone (its delta
 * failed or ran out of time), so part of the result is as old as that baseline.
 */
export type RetrievalMode = 'live_provider' | 'cache_baseline' | 'cache_baseline_with_delta';

/** The final result's metadata, in the contract's property order (§5 final frame). */
export interface FederationMetadata {
  readonly retrieval_mode: RetrievalMode;
  /** Some source answered from its baseline. */
  readonly cache_baseline_applied: boolean;
  /** Some source's baseline was brought current by its delta. */
  readonly source_delta_applied: boolean;
  /** `partial` on any source failure, even with zero records (§5). */
  readonly completeness: 'complete' | 'partial';
  readonly result_count: number;
  /** When the operation observed its sources, e.g. `2026-10-08T12:00:00+00:00`. */
  readonly observed_at: string;
  readonly provenance: readonly SourceProvenance[];
  readonly source_errors: readonly SourceErrorEntry[];
}

/** The authoritative final result: merged records plus metadata (§5). */
export interface FederationResult {
  readonly records: readonly FederatedRecord[];
  readonly metadata: FederationMetadata;
}
