/**
 * Replayed Okta `User` objects (developer.okta.com/docs/api/openapi/okta-management/management/tag/User/):
 * top-level status and timestamps, a `profile`, and `_links.self` under the org URL.
 */
import { hashString } from '../../../lambda/sources/index.js';
import type { ProviderPerson } from '../population.js';
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
function oktaId(person: ProviderPerson): string {
  let n = hashString(`okta:${person.id}:${person.email}`);
  let id = '';
  for (let i = 0; i < 11; i++) {
    id += ALPHABET[n % 62]!;
    n = Math.floor(n / 62) + hashString(`${person.id}:${i}`);
  }
  return `00u${id}${person.id.slice(1)}`;
}

/** The Okta user of a replay person; `org` is the org URL its `_links` live under. */
export function oktaUser(person: ProviderPerson, org: string): OktaUser {
  const id = oktaId(person);
  const updatedAt = Date.parse(person.lastModified);
  const created = updatedAt - 90 * 86_400_000;
  return {
    id,
    status: person.active ? 'ACTIVE' : 'DEPROVISIONED',
    created: iso(created),
    activated: iso(created + 60_000),
    statusChanged: iso(created + 60_000),
    lastLogin: null,
    lastUpdated: iso(updatedAt),
    passwordChanged: null,
    type: { id: 'oty1a2b3c4d5e6f7g8h9' },
    profile: {
      firstName: person.givenName,
      lastName: person.familyName,
      mobilePhone: person.phone,
      secondEmail: null,
      login: person.userName,
      email: person.email,
      title: person.title,
      department: person.department,
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
