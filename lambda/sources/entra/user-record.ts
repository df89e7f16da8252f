/**
 * One Graph `user` (learn.microsoft.com/graph/api/resources/user) as a federated raw record. Graph users
 * carry no modification time, so `observed_at` is when Graph answered (the page's `Date`). A user without
 * an `id` is malformed: skipped and counted.
 */
import type { RawRecord, SourceRef } from '../../federation/index.js';
import type { ItemOutcome } from '../kernel/index.js';

const MALFORMED = { skip: 'malformed_record' } as const;
const CAPABILITIES: readonly string[] = Object.freeze(['read']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Maps Graph users of one source, all observed at `observedAt`. */
export function graphUserMapper(source: SourceRef, observedAt: string): (item: unknown) => ItemOutcome {
  return (item) => {
    if (!isObject(item)) return MALFORMED;
    const id = text(item['id']);
    if (id === undefined) return MALFORMED;
    const given = [text(item['givenName']), text(item['surname'])].filter(Boolean).join(' ');
    const phones = Array.isArray(item['businessPhones']) ? (item['businessPhones'] as unknown[]) : [];
    const attributes: Record<string, unknown> = {};
    for (const [key, property] of [
      ['user_principal_name', 'userPrincipalName'],
      ['job_title', 'jobTitle'],
      ['department', 'department'],
    ] as const) {
      const value = text(item[property]);
      if (value !== undefined) attributes[key] = value;
    }
    const enabled = item['accountEnabled'];
    const record: RawRecord = {
      source_type: source.source_type,
      source_identity: source.source_identity,
      external_id: id,
      record_type: 'person',
      observed_at: observedAt,
      capabilities: CAPABILITIES,
      version: null,
      display_name: text(item['displayName']) ?? (given || null),
      email: text(item['mail']) ?? null,
      phone: text(item['mobilePhone']) ?? text(phones[0]) ?? null,
      lifecycle: enabled === true ? 'active' : enabled === false ? 'inactive' : null,
      attributes,
    };
    return record;
  };
}

/** A page's `Date` header as the `observed_at` of its users (this clock when it has none or it is unreadable). */
export function observedAtOf(date: string | undefined): string {
  const at = date === undefined ? Number.NaN : Date.parse(date);
  return new Date(Number.isNaN(at) ? Date.now() : at).toISOString();
}
