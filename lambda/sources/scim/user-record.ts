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
import { isObject, lowerKeys } from './scim-json.js';

// Keys are lower-cased before mapping (RFC 7643 §2.1: attribute names and schema URNs are case-insensitive).
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user';
const MALFORMED = { skip: 'malformed_record' } as const;
const CAPABILITIES: readonly string[] = Object.freeze(['read']);

type Json = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The primary (else first) `value` of a multi-valued attribute such as `emails`. */
function primaryValue(list: unknown): string | null {
  if (!Array.isArray(list)) return null;
  const entries = list.filter(isObject);
  const chosen = entries.find((e) => e['primary'] === true) ?? entries[0];
  return text(chosen?.['value']) ?? null;
}

/** Non-secret, commonly useful attributes, only those present. */
function attributesOf(user: Json): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    const v = text(value);
    if (v !== undefined) out[key] = v;
  };
  put('user_name', user['username']);
  put('title', user['title']);
  put('user_type', user['usertype']);
  const enterprise = user[ENTERPRISE];
  if (isObject(enterprise)) {
    put('department', enterprise['department']);
    put('employee_number', enterprise['employeenumber']);
    put('organization', enterprise['organization']);
  }
  return out;
}

/** Maps SCIM users of one source as a server sends them, checking each one's `meta.location` host. */
export function scimUserMapper(
  source: SourceRef,
  locationHost: string,
  readAt: string,
  baseUrl?: URL,
): (item: unknown) => ItemOutcome {
  const map = loweredUserMapper(source, locationHost, readAt, baseUrl);
  return (item) => map(lowerKeys(item));
}

/** {@link scimUserMapper} for users whose keys are already lower-cased (`lowerKeys`). */
export function loweredUserMapper(
  source: SourceRef,
  locationHost: string,
  readAt: string,
  baseUrl?: URL,
): (item: unknown) => ItemOutcome {
  return (item) => {
    if (!isObject(item)) return MALFORMED;
    const id = text(item['id']);
    if (id === undefined) return MALFORMED;
    const meta = isObject(item['meta']) ? item['meta'] : {};
    const location = text(meta['location']);
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
    const modified = text(meta['lastmodified']);
    const name = isObject(item['name']) ? item['name'] : {};
    const given = [text(name['givenname']), text(name['familyname'])].filter(Boolean).join(' ');
    const record: RawRecord = {
      source_type: source.source_type,
      source_identity: source.source_identity,
      external_id: id,
      record_type: 'person',
      observed_at: modified !== undefined && !Number.isNaN(Date.parse(modified)) ? modified : readAt,
      capabilities: CAPABILITIES,
      version: text(meta['version']) ?? null,
      display_name:
        text(item['displayname']) ??
        text(name['formatted']) ??
        (given || undefined) ??
        text(item['username']) ??
        null,
      email: primaryValue(item['emails']),
      phone: primaryValue(item['phonenumbers']),
      lifecycle: item['active'] === true ? 'active' : item['active'] === false ? 'inactive' : null,
      attributes: attributesOf(item),
    };
    return record;
  };
}
