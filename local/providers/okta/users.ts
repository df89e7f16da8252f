/**
 * Replayed Okta `User` objects (developer.okta.com/docs/api/openapi/okta-management/management/tag/User/):
 * top-level status and timestamps, a `profile`, and `_links.self` under the org URL.
 */
import type { ReplayPerson } from '../replay/people.js';
import type { SearchAttributes } from './search.js';

/** An Okta user as `GET /api/v1/users` lists it. */
export type OktaUser = Readonly<{
  id: string;
  status: string;
  created: string;
  activated: string | null;
  statusChanged: string | null;
  lastLogin: string | null;
  lastUpdated: string;
  passwordChanged: string | null;
  type: { id: string };
  profile: Readonly<Record<string, string | null>>;
  _links: { self: { href: string } };
}>;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000Z');

/** Okta ids are 20 characters starting `00u`; this one is stable for the person. */
function oktaId(person: ReplayPerson): string {
  let n = person.key * 1_000_003 + person.index;
  let id = '';
  for (let i = 0; i < 17; i++) {
    id += ALPHABET[n % 62]!;
    n = Math.floor(n / 62) + person.key + i;
  }
  return `00u${id}`;
}

/** The Okta user of a replay person; `org` is the org URL its `_links` live under. */
export function oktaUser(person: ReplayPerson, org: string): OktaUser {
  const id = oktaId(person);
  const created = person.updatedAt - 90 * 86_400_000;
  return {
    id,
    status: person.active ? 'ACTIVE' : 'DEPROVISIONED',
    created: iso(created),
    activated: iso(created + 60_000),
    statusChanged: iso(created + 60_000),
    lastLogin: null,
    lastUpdated: iso(person.updatedAt),
    passwordChanged: null,
    type: { id: 'oty1a2b3c4d5e6f7g8h9' },
    profile: {
      firstName: person.first,
      lastName: person.last,
      mobilePhone: person.phone,
      secondEmail: null,
      login: person.email,
      email: person.email,
    },
    _links: { self: { href: `${org}/api/v1/users/${id}` } },
  };
}

/** The search view of a user. */
export function searchAttributes(user: OktaUser): SearchAttributes {
  return (path) => {
    if (path.startsWith('profile.')) return user.profile[path.slice(8)] ?? undefined;
    const value = (user as Record<string, unknown>)[path];
    return typeof value === 'string' ? value : undefined;
  };
}
