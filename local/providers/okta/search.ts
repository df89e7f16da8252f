/**
 * The `search` and `filter` expression languages of Okta's List Users, as the management API's OpenAPI
 * describes them (`okta/okta-management-openapi-spec`, `dist/2026.06.3/management-minimal.yaml`,
 * `/api/v1/users` `get`, parameters `search` and `filter`): SCIM-style `attr op "value"` terms joined by
 * `and`/`or` with parentheses; strings double-quoted with `\"` and `\\` escapes.
 *
 * - `search`: operators `eq`, `sw`, `co` (`co` only on `profile.firstName`, `profile.lastName`,
 *   `profile.email` and `profile.login`) and the date comparisons of its examples (`lastUpdated gt "…"`);
 *   `ne` "isn't supported". Operators and values are case-insensitive, property names case-sensitive.
 * - `filter`: only `status`, `lastUpdated`, `id`, `profile.login`, `profile.email`, `profile.firstName`,
 *   `profile.lastName`; only `eq`, and `gt ge lt le` on `lastUpdated`; case-sensitive values.
 */

/** A search or filter this replay cannot parse or Okta does not support (Okta answers 400 `E0000031`). */
export class SearchSyntaxError extends Error {
  override readonly name = 'SearchSyntaxError';
}

/** Attribute path → value of one user. */
export type SearchAttributes = (path: string) => string | undefined;

/** Which language an expression is in. */
export type ExpressionKind = 'search' | 'filter';

const FILTERABLE = new Set([
  'id',
  'status',
  'lastUpdated',
  'profile.login',
  'profile.email',
  'profile.firstName',
  'profile.lastName',
]);
const CONTAINS = new Set(['profile.firstName', 'profile.lastName', 'profile.email', 'profile.login']);
const DATES = new Set(['created', 'lastUpdated']);

/** Attributes this replay lets a search name (a subset of Okta's searchable profile and top-level ones). */
export const SEARCHABLE = new Set([
  'id',
  'status',
  'created',
  'lastUpdated',
  'profile.login',
  'profile.email',
  'profile.firstName',
  'profile.lastName',
  'profile.mobilePhone',
]);

const TOKEN = /\s*(\(|\)|"(?:[^"\\]|\\.)*"|[A-Za-z][A-Za-z0-9.]*)/y;

type Predicate = (attributes: SearchAttributes) => boolean;

/** Parses a `search` (or `filter`) expression; throws {@link SearchSyntaxError}. */
export function parseOktaSearch(text: string, kind: ExpressionKind = 'search'): Predicate {
  const caseless = kind === 'search';
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (match === null) {
      if (text.slice(at).trim() === '') break;
      throw new SearchSyntaxError(`unexpected input at ${at}`);
    }
    tokens.push(match[1]!);
  }
  let position = 0;
  const take = (): string => {
    const token = tokens[position++];
    if (token === undefined) throw new SearchSyntaxError('unexpected end');
    return token;
  };
  const literal = (): string => {
    const token = take();
    if (!token.startsWith('"')) throw new SearchSyntaxError('expected a quoted string');
    try {
      const value = JSON.parse(token) as string;
      return caseless ? value.toLowerCase() : value;
    } catch {
      throw new SearchSyntaxError('bad string literal');
    }
  };
  const atom = (): Predicate => {
    const head = take();
    if (head === '(') {
      const inner = or();
      if (take() !== ')') throw new SearchSyntaxError('expected )');
      return inner;
    }
    if (!(kind === 'search' ? SEARCHABLE : FILTERABLE).has(head))
      throw new SearchSyntaxError(`attribute ${head} is not usable in a ${kind}`);
    const op = take().toLowerCase();
    const read = (a: SearchAttributes) => (caseless ? a(head)?.toLowerCase() : a(head));
    const allowed =
      op === 'eq' ||
      (DATES.has(head) && ['gt', 'ge', 'lt', 'le'].includes(op)) ||
      (kind === 'search' && (op === 'sw' || (op === 'co' && CONTAINS.has(head))));
    if (!allowed) throw new SearchSyntaxError(`operator ${op} is not supported on ${head} in a ${kind}`);
    const value = literal();
    switch (op) {
      case 'eq':
        return (a) => read(a) === value;
      case 'sw':
        return (a) => read(a)?.startsWith(value) === true;
      case 'co':
        return (a) => read(a)?.includes(value) === true;
      case 'gt':
        return (a) => (read(a) ?? '') > value;
      case 'ge':
        return (a) => (read(a) ?? '') >= value;
      case 'lt':
        return (a) => (read(a) ?? '\uffff') < value;
      case 'le':
        return (a) => (read(a) ?? '\uffff') <= value;
      default:
        throw new SearchSyntaxError(`operator ${op} is not supported`);
    }
  };
  const join = (word: string, next: () => Predicate, both: (l: boolean, r: () => boolean) => boolean) => {
    let left = next();
    while (tokens[position]?.toLowerCase() === word) {
      position += 1;
      const l = left;
      const r = next();
      left = (a) => both(l(a), () => r(a));
    }
    return left;
  };
  const and = (): Predicate => join('and', atom, (l, r) => l && r());
  const or = (): Predicate => join('or', and, (l, r) => l || r());
  const predicate = or();
  if (position !== tokens.length) throw new SearchSyntaxError('unexpected trailing input');
  return predicate;
}
