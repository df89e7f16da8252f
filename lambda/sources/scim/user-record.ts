/**
 * One SCIM `User` resource (RFC 7643 §4.1) as a federated raw record, after checking that it belongs to
 * the configured source: a `meta.location` on another host means the server answered for someone else
 * (a misrouted tenant, a proxy serving the wrong backend), and the source fails with
 * `source_identity_mismatch` before any of its page is published. A resource without an `id` is
 * malformed: skipped and counted.
 */
import type { RawRecord, SourceRef } from '../../federation/index.js';
import { ProviderError } from '../kernel/index.js';
import type { ItemOutcome } from '../kernel/index.js';
import { at, isObject } from './scim-json.js';

// Every name is read with `at` (RFC 7643 §2.1: attribute names and schema URNs are case-insensitive).
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const MALFORMED = { skip: 'malformed_record' } as const;
const CAPABILITIES: readonly string[] = Object.freeze(['read']);

type Json = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The primary (else first) `value` of a multi-valued attribute such as `emails`. */
function primaryValue(list: unknown): string | null {
  if (!Array.isArray(list)) return null;
  const entries = list.filter(isObject);
  const chosen = entries.find((e) => at(e, 'primary') === true) ?? entries[0];
  return chosen === undefined ? null : (text(at(chosen, 'value')) ?? null);
}

/** Every `value` of a multi-valued attribute, in order. */
function allValues(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    const value = isObject(entry) ? text(at(entry, 'value')) : undefined;
    return value === undefined ? [] : [value];
  });
}

/** Non-secret, commonly useful attributes, only those present. */
function attributesOf(user: Json): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    const v = text(value);
    if (v !== undefined) out[key] = v;
  };
  put('user_name', at(user, 'userName'));
  // A search's `co` compares every address (`filters.ts`): a person with several keeps them all, so a cached
  // read finds them by any of them, as a live one does (the record's `email` is the primary one).
  const emails = allValues(at(user, 'emails'));
  if (emails.length > 1) out['emails'] = emails;
  put('title', at(user, 'title'));
  put('user_type', at(user, 'userType'));
  const enterprise = at(user, ENTERPRISE);
  if (isObject(enterprise)) {
    put('department', at(enterprise, 'department'));
    put('employee_number', at(enterprise, 'employeeNumber'));
    put('organization', at(enterprise, 'organization'));
  }
  return out;
}

/** Maps SCIM users of one source, checking each one's `meta.location` host. */
export function scimUserMapper(
  source: SourceRef,
  locationHost: string,
  readAt: string,
  baseUrl?: URL,
): (item: unknown) => ItemOutcome {
  return (item) => {
    if (!isObject(item)) return MALFORMED;
    const id = text(at(item, 'id'));
    if (id === undefined) return MALFORMED;
    const metaValue = at(item, 'meta');
    const meta: Json = isObject(metaValue) ? metaValue : {};
    const location = text(at(meta, 'location'));
    if (location !== undefined) {
      let host: string;
      try {
        // A relative location (allowed by some servers) resolves against the base URL: on its host.
        host = new URL(location, baseUrl).host.toLowerCase();
      } catch {
        return MALFORMED;
      }
      if (host !== locationHost) throw new ProviderError('source_identity_mismatch', 'identity_mismatch');
    }
    const modified = text(at(meta, 'lastModified'));
    const active = at(item, 'active');
    const nameValue = at(item, 'name');
    const name: Json = isObject(nameValue) ? nameValue : {};
    const given = [text(at(name, 'givenName')), text(at(name, 'familyName'))].filter(Boolean).join(' ');
    const record: RawRecord = {
      source_type: source.source_type,
      source_identity: source.source_identity,
      external_id: id,
      record_type: 'person',
      observed_at: modified !== undefined && !Number.isNaN(Date.parse(modified)) ? modified : readAt,
      capabilities: CAPABILITIES,
      version: text(at(meta, 'version')) ?? null,
      display_name:
        text(at(item, 'displayName')) ??
        text(at(name, 'formatted')) ??
        (given || undefined) ??
        text(at(item, 'userName')) ??
        null,
      email: primaryValue(at(item, 'emails')),
      phone: primaryValue(at(item, 'phoneNumbers')),
      lifecycle: active === true ? 'active' : active === false ? 'inactive' : null,
      attributes: attributesOf(item),
    };
    return record;
  };
}
