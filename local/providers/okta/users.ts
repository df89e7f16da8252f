/**
 * Replayed Okta `User` objects, shaped after the examples of the management API's OpenAPI
 * (`okta/okta-management-openapi-spec`, `dist/2026.06.3/management-minimal.yaml`, `components/examples`):
 * `ListUsersResponse`, `ListUsersFilterResponse` (a `LOCKED_OUT` user; `credentials` with `emails` and an
 * `IMPORT` provider), `ListUsersSearchResponse` (`STAGED` and `PROVISIONED` users with null `activated`,
 * `statusChanged`, `passwordChanged`, a `secondEmail` of `""`, a custom profile attribute, no `credentials`)
 * and `ListUsersQResponse`; statuses are the `UserStatus` enum of the same file. Top-level status and
 * timestamps, a `profile` whose empty values are `null`, and `_links.self` under the org URL.
 *
 * A person who is not active is `SUSPENDED` or `DEPROVISIONED`; of the active ones, a few are in each of
 * `LOCKED_OUT`, `PASSWORD_EXPIRED`, `RECOVERY`, `STAGED` and `PROVISIONED` (so the lifecycle mapping meets
 * every status), the rest `ACTIVE`.
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
  credentials?: Readonly<Record<string, unknown>>;
  _links: { self: { href: string } };
}>;

/** The `UserStatus` of a person (see the module comment). */
export function oktaStatus(person: ProviderPerson): string {
  const n = Number(person.id.slice(1));
  if (!person.active) return n % 2 === 1 ? 'SUSPENDED' : 'DEPROVISIONED';
  const special: Readonly<Record<number, string>> = {
    7: 'LOCKED_OUT',
    17: 'PASSWORD_EXPIRED',
    27: 'RECOVERY',
    33: 'STAGED',
    39: 'PROVISIONED',
  };
  return special[n % 40] ?? 'ACTIVE';
}

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
  const n = Number(person.id.slice(1));
  const status = oktaStatus(person);
  const updatedAt = Date.parse(person.lastModified);
  const created = updatedAt - 90 * 86_400_000;
  const neverActivated = status === 'STAGED' || status === 'PROVISIONED';
  return {
    id,
    status,
    created: iso(created),
    activated: neverActivated ? null : iso(created + 60_000),
    statusChanged: status === 'STAGED' ? null : iso(created + 60_000),
    lastLogin: n % 4 === 0 && !neverActivated ? iso(updatedAt - 3_600_000) : null,
    lastUpdated: iso(updatedAt),
    passwordChanged: status === 'STAGED' ? null : iso(created + 120_000),
    type: { id: 'oty1a2b3c4d5e6f7g8h9' },
    profile: {
      firstName: person.givenName,
      lastName: person.familyName,
      mobilePhone: n % 10 === 3 ? null : person.phone,
      secondEmail: n % 10 === 5 ? '' : null,
      login: person.userName,
      email: person.email,
      title: person.title,
      department: person.department,
      // A custom-defined profile attribute, which a reader does not know and must ignore.
      ...(n % 5 === 0 ? { costCenter: `CC-${1000 + (n % 37)}` } : {}),
    },
    // Some users come with `credentials` (as `ListUsersFilterResponse` shows them), the others without.
    ...(n % 10 === 9
      ? {}
      : {
          credentials: {
            password: {},
            emails: [{ value: person.email, status: 'VERIFIED', type: 'PRIMARY' }],
            provider: n % 3 === 0 ? { type: 'IMPORT', name: 'IMPORT' } : { type: 'OKTA', name: 'OKTA' },
          },
        }),
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
