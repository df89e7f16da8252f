/**
 * One Okta `User` (developer.okta.com/docs/api/openapi/okta-management/management/tag/User/) as a
 * federated raw record, after checking that it belongs to the configured org: a `_links.self` under
 * another org URL means the answer came from someone else's org (a misrouted proxy, a wrong custom
 * domain), and the source fails with `source_identity_mismatch` before its page is published. A user
 * without an `id` is malformed: skipped and counted. `lastUpdated` becomes `observed_at`.
 */
import type { RawRecord, SourceRef } from '../../federation/index.js';
import { ProviderError } from '../kernel/index.js';
import type { ItemOutcome } from '../kernel/index.js';

const MALFORMED = { skip: 'malformed_record' } as const;
const CAPABILITIES: readonly string[] = Object.freeze(['read']);
// Okta's `UserStatus` values onto the federated lifecycle: a person who can still sign in (or is only
// locked out or mid-recovery) is active; one created but never activated, or mid-activation (`ACTIVATING`,
// a transitional status the spec names), is pending; `SUSPENDED` is kept apart from `DEPROVISIONED`
// (deactivated), since a suspension is reversible without re-provisioning. An unknown status maps to null.
const LIFECYCLE: Readonly<Record<string, string>> = {
  ACTIVE: 'active',
  PASSWORD_EXPIRED: 'active',
  LOCKED_OUT: 'active',
  RECOVERY: 'active',
  STAGED: 'pending',
  PROVISIONED: 'pending',
  ACTIVATING: 'pending',
  SUSPENDED: 'suspended',
  DEPROVISIONED: 'inactive',
};

/** Record attribute → the profile property it copies, when present. */
const PROFILE_ATTRIBUTES = [
  ['login', 'login'],
  ['first_name', 'firstName'],
  ['last_name', 'lastName'],
  ['title', 'title'],
  ['department', 'department'],
  ['employee_number', 'employeeNumber'],
] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Maps Okta users of one source, checking each one's `_links.self` origin against `orgOrigin`. */
export function oktaUserMapper(
  source: SourceRef,
  orgOrigin: string,
  readAt: string,
): (item: unknown) => ItemOutcome {
  return (item) => {
    if (!isObject(item)) return MALFORMED;
    const id = text(item['id']);
    if (id === undefined) return MALFORMED;
    const links = isObject(item['_links']) ? item['_links'] : {};
    const self = isObject(links['self']) ? text(links['self']['href']) : undefined;
    if (self !== undefined) {
      let origin: string;
      try {
        origin = new URL(self).origin;
      } catch {
        return MALFORMED;
      }
      if (origin !== orgOrigin) throw new ProviderError('source_identity_mismatch', 'identity_mismatch');
    }
    const profile = isObject(item['profile']) ? item['profile'] : {};
    const named = [text(profile['firstName']), text(profile['lastName'])].filter(Boolean).join(' ');
    const updated = text(item['lastUpdated']);
    const status = text(item['status']);
    const attributes: Record<string, unknown> = {};
    if (status !== undefined) attributes['okta_status'] = status;
    // First and last name and login are what an Okta search compares (`search.ts`): a cached read matches on them.
    for (const [key, property] of PROFILE_ATTRIBUTES)
      if (text(profile[property]) !== undefined) attributes[key] = profile[property];
    const record: RawRecord = {
      source_type: source.source_type,
      source_identity: source.source_identity,
      external_id: id,
      record_type: 'person',
      observed_at: updated !== undefined && !Number.isNaN(Date.parse(updated)) ? updated : readAt,
      capabilities: CAPABILITIES,
      version: null,
      display_name: text(profile['displayName']) ?? (named || undefined) ?? text(profile['login']) ?? null,
      email: text(profile['email']) ?? null,
      phone: text(profile['mobilePhone']) ?? text(profile['primaryPhone']) ?? null,
      lifecycle: status === undefined ? null : (LIFECYCLE[status.toUpperCase()] ?? null),
      attributes,
    };
    return record;
  };
}
