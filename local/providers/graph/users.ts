/**
 * Replayed Microsoft Graph `user` objects (learn.microsoft.com/graph/api/resources/user): the property
 * names, types and default property set of `GET /v1.0/users` on the v1.0 endpoint.
 */
import type { ReplayPerson } from '../replay/people.js';

/** A Graph user as `/v1.0/users` returns it with no `$select`. */
export type GraphUser = Readonly<Record<string, unknown>>;

/** Properties Graph returns when no `$select` is given (its documented default set). */
export const DEFAULT_SELECT = [
  'businessPhones',
  'displayName',
  'givenName',
  'jobTitle',
  'mail',
  'mobilePhone',
  'officeLocation',
  'preferredLanguage',
  'surname',
  'userPrincipalName',
  'id',
] as const;

/** Every property this replay can `$select`. */
export const SELECTABLE = new Set<string>([
  ...DEFAULT_SELECT,
  'accountEnabled',
  'department',
  'createdDateTime',
]);

const TITLES = ['Engineer', 'Analyst', 'Designer', 'Manager', 'Consultant', 'Accountant'];
const DEPARTMENTS = ['Engineering', 'Finance', 'Sales', 'People', 'Operations'];

/** A GUID-shaped object id, stable for the person's key. */
function objectId(key: number, index: number): string {
  const hex = (key.toString(16).padStart(8, '0') + index.toString(16).padStart(24, '0')).slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The Graph user of a replay person, with every selectable property. */
export function graphUser(person: ReplayPerson, domain: string): GraphUser {
  const local = person.email.split('@')[0]!;
  return {
    id: objectId(person.key, person.index),
    displayName: `${person.first} ${person.last}`,
    givenName: person.first,
    surname: person.last,
    mail: person.email,
    userPrincipalName: `${local}@${domain}`,
    mobilePhone: person.phone,
    businessPhones: [],
    jobTitle: TITLES[person.key % TITLES.length]!,
    officeLocation: null,
    preferredLanguage: 'en-US',
    accountEnabled: person.active,
    department: DEPARTMENTS[person.key % DEPARTMENTS.length]!,
    createdDateTime: new Date(person.updatedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** `user` with only `select`ed properties (Graph omits the rest). */
export function project(user: GraphUser, select: readonly string[]): GraphUser {
  return Object.fromEntries(select.map((name) => [name, user[name] ?? null]));
}
