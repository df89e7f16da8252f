/**
 * Source-response validation (STYLE habit 4): every raw record is checked against the source being read and
 * turned into a {@link NormalizedRecord} once, so later federation never re-normalises.
 */
import { normaliseEmail, normalisePhone } from './normalize.js';
import { provenanceKey, recordRefOfKey } from './record-ref.js';
import { parseInstant } from './timestamps.js';
import type { FederatedRecord, ProvenanceEntry, SourceRef } from './types.js';

/** A validated record with its identity keys computed once. */
export interface NormalizedRecord {
  readonly entry: ProvenanceEntry;
  /** {@link provenanceKey} of `entry`. */
  readonly key: string;
  /** The ref this record has on its own (digest of `key`); a cluster's ref is its first member's. */
  readonly ref: string;
  readonly display_name: string | null;
  readonly email: string | null;
  readonly phone: string | null;
  readonly lifecycle: string | null;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly emailKey: string | null;
  readonly phoneKey: string | null;
  /** `entry.observed_at` as epoch milliseconds, for precedence. */
  readonly observedMs: number;
  /** `display_name` lower-cased: the result order's first key (computed once, used by every sort). */
  readonly nameKey: string | null;
  /**
   * The record as it stands alone, built on first use and then shared by every page and the final result
   * that publish it unmerged (one object per record instead of one per publication).
   */
  standalone: FederatedRecord | undefined;
}

/** Why a raw record was refused: it claims another source, or it is not a well-formed record. */
export type RecordRejection = 'source_identity_mismatch' | 'invalid_record';

const isText = (v: unknown): v is string => typeof v === 'string' && v !== '' && !v.includes('\u0000');
const isNullableText = (v: unknown): v is string | null | undefined =>
  v === undefined || v === null || typeof v === 'string';

function isTextList(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const emptyAttributes: Readonly<Record<string, unknown>> = Object.freeze({});

// Nearly every record carries the same one-entry capability list (`["read"]`), so one-entry lists are shared
// frozen arrays instead of a copy per record. Bounded: provider-chosen strings cannot grow it forever.
const MAX_SHARED_CAPABILITIES = 64;
const sharedCapabilities = new Map<string, readonly string[]>();

function copyCapabilities(capabilities: readonly string[]): readonly string[] {
  if (capabilities.length !== 1) return [...capabilities];
  const only = capabilities[0]!;
  let shared = sharedCapabilities.get(only);
  if (shared === undefined) {
    shared = Object.freeze([only]);
    if (sharedCapabilities.size < MAX_SHARED_CAPABILITIES) sharedCapabilities.set(only, shared);
  }
  return shared;
}

/**
 * Validates one raw record read from `source`. The provenance claim is checked first: a record naming
 * another source is a mismatch even if it is also malformed (§4 "validated against the authorized source").
 */
export function normalizeRecord(raw: unknown, source: SourceRef): NormalizedRecord | RecordRejection {
  if (typeof raw !== 'object' || raw === null) return 'invalid_record';
  const r = raw as Record<string, unknown>;
  if (r.source_type !== source.source_type || r.source_identity !== source.source_identity)
    return 'source_identity_mismatch';
  const { external_id, record_type, observed_at, capabilities, version } = r;
  if (!isText(external_id) || !isText(record_type) || typeof observed_at !== 'string')
    return 'invalid_record';
  const observedMs = parseInstant(observed_at);
  if (Number.isNaN(observedMs)) return 'invalid_record';
  if (!isTextList(capabilities)) return 'invalid_record';
  const { display_name, email, phone, lifecycle, attributes } = r;
  if (!isNullableText(version) || !isNullableText(display_name) || !isNullableText(email))
    return 'invalid_record';
  if (!isNullableText(phone) || !isNullableText(lifecycle)) return 'invalid_record';
  if (attributes !== undefined && !isPlainObject(attributes)) return 'invalid_record';

  const entry: ProvenanceEntry = {
    source_type: source.source_type,
    source_identity: source.source_identity,
    external_id,
    record_type,
    observed_at,
    capabilities: copyCapabilities(capabilities),
    version: version ?? null,
  };
  const key = provenanceKey(entry);
  const name = display_name ?? null;
  return {
    entry,
    key,
    ref: recordRefOfKey(key),
    display_name: name,
    email: email ?? null,
    phone: phone ?? null,
    lifecycle: lifecycle ?? null,
    // Copied once here (the adapter may reuse its object) and then shared by page and final records.
    attributes: attributes === undefined ? emptyAttributes : { ...attributes },
    emailKey: normaliseEmail(email),
    phoneKey: normalisePhone(phone),
    observedMs,
    nameKey: name === null ? null : name.toLowerCase(),
    standalone: undefined,
  };
}
