/**
 * Source-response validation (STYLE habit 4): every raw record is checked against the source being read and
 * validated once into a {@link ValidatedPage} (the standalone record plus its identity keys),
 * so later federation never re-normalises. {@link NormalizedRecord} is one record of a page, for the rules'
 * general form.
 */
import { normaliseEmail, normalisePhone } from './normalize.js';
import { provenanceKey, recordRefOfKey } from './record-ref.js';
import type { FederatedRecord, ProvenanceEntry, SourceRef } from './types.js';

/**
 * A validated record: the record as it stands alone, plus the identity keys validation computed for it, so
 * that nothing is normalised twice.
 */
export interface NormalizedRecord {
  /**
   * The record on its own (one provenance entry, no identity_match), built once here and shared by every page
   * and by the final result that publish it unmerged. Its `sources[0]` is the provenance entry.
   */
  readonly record: FederatedRecord;
  readonly emailKey: string | null;
  readonly phoneKey: string | null;
  /** `observed_at` as epoch milliseconds, for precedence. */
  readonly observedMs: number;
}

/** The provenance entry of a validated record. */
export const entryOf = (r: NormalizedRecord): ProvenanceEntry => r.record.sources[0]!;

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
 * The validated records of one provider page, in provider order, each with the identity keys validation
 * computed for it (the engine keeps every delivered one until the final result).
 */
export class ValidatedPage {
  readonly members: NormalizedRecord[] = [];

  get length(): number {
    return this.members.length;
  }

  /**
   * Validates one raw record read from `source` and appends it. The provenance claim is checked first: a record
   * naming another source is a mismatch even if it is also malformed (§4 "validated against the authorized
   * source"). Returns why a refused record was refused (nothing is appended then).
   */
  add(raw: unknown, source: SourceRef): RecordRejection | undefined {
    if (typeof raw !== 'object' || raw === null) return 'invalid_record';
    const r = raw as Record<string, unknown>;
    if (r.source_type !== source.source_type || r.source_identity !== source.source_identity)
      return 'source_identity_mismatch';
    const { external_id, record_type, observed_at, capabilities, version } = r;
    if (!isText(external_id) || !isText(record_type) || typeof observed_at !== 'string')
      return 'invalid_record';
    const observedMs = Date.parse(observed_at);
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
    this.members.push({
      record: {
        record_ref: recordRefOfKey(provenanceKey(entry)),
        display_name: display_name ?? null,
        email: email ?? null,
        phone: phone ?? null,
        lifecycle: lifecycle ?? null,
        sources: [entry],
        identity_match: null,
        // Copied once here (the adapter may reuse its object) and then shared by page and final records.
        attributes: attributes === undefined ? emptyAttributes : { ...attributes },
      },
      emailKey: normaliseEmail(email),
      phoneKey: normalisePhone(phone),
      observedMs,
    });
    return undefined;
  }

  /**
   * Validates and appends every record of a provider page; stops at the first refused record and returns why
   * it was refused. (One plain loop apart from the async reader: the hot loop is compiled on its own.)
   */
  addAll(raws: readonly unknown[], source: SourceRef): RecordRejection | undefined {
    for (let i = 0; i < raws.length; i++) {
      const rejection = this.add(raws[i], source);
      if (rejection !== undefined) return rejection;
    }
    return undefined;
  }

  /** Keeps the first `length` records (a source's record limit). */
  truncate(length: number): void {
    if (length >= this.length) return;
    this.members.length = length;
  }

  /** Record `i`. */
  member(i: number): NormalizedRecord {
    return this.members[i]!;
  }
}

/** Validates one raw record read from `source` (see {@link ValidatedPage.add}). */
export function normalizeRecord(raw: unknown, source: SourceRef): NormalizedRecord | RecordRejection {
  const page = new ValidatedPage();
  return page.add(raw, source) ?? page.member(0);
}
