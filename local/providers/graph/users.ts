/**
 * Replayed Microsoft Graph `user` objects (learn.microsoft.com/graph/api/resources/user): the property
 * names, types and default property set of `GET /v1.0/users` on the v1.0 endpoint.
 */
import { hashString } from '../../../lambda/sources/index.js';
import type { ProviderPerson } from '../population.js';

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

/** A GUID-shaped object id, stable for the person. */
function objectId(person: ProviderPerson): string {
  const key = hashString(`graph:${person.id}:${person.email}`);
  const hex = (key.toString(16).padStart(8, '0') + person.id.slice(1).padStart(24, '0')).slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The Graph user of a replay person, with every selectable property. */
export function graphUser(person: ProviderPerson, domain: string): GraphUser {
  const local = person.email.split('@')[0]!;
  return {
    id: objectId(person),
    displayName: person.displayName,
    givenName: person.givenName,
    surname: person.familyName,
    mail: person.email,
    userPrincipalName: `${local}@${domain}`,
    mobilePhone: person.phone,
    businessPhones: [],
    jobTitle: person.title,
    officeLocation: null,
    preferredLanguage: 'en-US',
    accountEnabled: person.active,
    department: person.department,
    createdDateTime: person.lastModified,
  };
}

/** `user` with only `select`ed properties (Graph omits the rest). */
export function project(user: GraphUser, select: readonly string[]): GraphUser {
  return Object.fromEntries(select.map((name) => [name, user[name] ?? null]));
}
