/**
 * Replayed Microsoft Graph `user` objects: the property names, types and default property set of
 * `GET /v1.0/users` (`microsoftgraph/microsoft-graph-docs-contrib`, `api-reference/v1.0/api/user-list.md`,
 * "By default, only a limited set of properties are returned" and example `get_users_2`).
 *
 * With `vendorShapes`, some users take the shapes that example and its neighbours show, so an adapter
 * meets them: a resource account with null names, job title, mobile phone and language and no business
 * phone (`get_users_2`, first user); an administrator without `mail` whose phone is only in
 * `businessPhones` (`get_users_2`, second user); a B2B guest whose `userPrincipalName` is
 * `<mail with _ for @>#EXT#@<tenant domain>` and whose `mail` keeps its owner's casing
 * (`list_users_startswith`, `get_b2b_users`); and a property the request did not name (as `mailNickname` in
 * `list_users_startswith`), here a schema-extension value shaped as in `list_users_schemaextension`, which a
 * reader must ignore.
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

/** Which documented shape a person's user takes under `vendorShapes` (one in 50 of each). */
export function graphShape(person: ProviderPerson): 'resource' | 'no_mail' | 'guest' | 'extended' | 'plain' {
  const n = Number(person.id.slice(1)) % 50;
  return n === 25 ? 'resource' : n === 0 ? 'no_mail' : n === 37 ? 'guest' : n === 12 ? 'extended' : 'plain';
}

/** The Graph user of a replay person, with every selectable property (and its documented shape). */
export function graphUser(person: ProviderPerson, domain: string, vendorShapes = false): GraphUser {
  const user = plainUser(person, domain);
  switch (vendorShapes ? graphShape(person) : 'plain') {
    case 'resource':
      return {
        ...user,
        givenName: null,
        surname: null,
        jobTitle: null,
        mobilePhone: null,
        preferredLanguage: null,
        businessPhones: [],
      };
    case 'no_mail':
      return { ...user, mail: null, mobilePhone: null, businessPhones: [person.phone] };
    case 'guest': {
      const [local = '', home = ''] = person.email.split('@');
      const mail = `${local.charAt(0).toUpperCase()}${local.slice(1)}@${home}`;
      return { ...user, mail, userPrincipalName: `${local}_${home}#EXT#@${domain}` };
    }
    case 'extended':
      return {
        ...user,
        ext55gb1l09_msLearnCourses: {
          '@odata.type': '#microsoft.graph.ComplexExtensionValue',
          courseType: 'Developer',
          courseId: 1,
        },
      };
    case 'plain':
      return user;
  }
}

function plainUser(person: ProviderPerson, domain: string): GraphUser {
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

/**
 * `user` with only `select`ed properties (Graph omits the rest), plus the schema-extension value of an
 * `extended` user: a property nobody asked for (see the module comment).
 */
export function project(user: GraphUser, select: readonly string[]): GraphUser {
  const extension = user['ext55gb1l09_msLearnCourses'];
  return {
    ...Object.fromEntries(select.map((name) => [name, user[name] ?? null])),
    ...(extension === undefined ? {} : { ext55gb1l09_msLearnCourses: extension }),
  };
}
