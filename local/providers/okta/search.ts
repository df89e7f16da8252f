/**
 * The `search` expression language of Okta's List Users (developer.okta.com/docs/api/openapi/okta-management/
 * management/tag/User/#tag/User/operation/listUsers): SCIM-style `attr op "value"` terms joined by `and`/`or`
 * with parentheses, operators `eq ne sw co gt ge lt le` and `attr pr`. Strings are double-quoted with `\"`
 * and `\\` escapes (RFC 7644 §3.4.2.2 via RFC 7159 strings). Text comparisons ignore case, as Okta's do.
 */

/** A search this replay cannot parse (Okta answers 400 `E0000031`). */
export class SearchSyntaxError extends Error {
  override readonly name = 'SearchSyntaxError';
}

/** Attribute path → value of one user. */
export type SearchAttributes = (path: string) => string | undefined;

/** Attributes Okta lets a search name (a subset of its searchable profile and top-level attributes). */
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

/** Parses a `search` expression; throws {@link SearchSyntaxError}. */
export function parseOktaSearch(text: string): Predicate {
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
      return (JSON.parse(token) as string).toLowerCase();
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
    if (!SEARCHABLE.has(head)) throw new SearchSyntaxError(`attribute ${head} is not searchable`);
    const op = take().toLowerCase();
    const read = (a: SearchAttributes) => a(head)?.toLowerCase();
    if (op === 'pr') return (a) => read(a) !== undefined;
    const value = literal();
    switch (op) {
      case 'eq':
        return (a) => read(a) === value;
      case 'ne':
        return (a) => read(a) !== value;
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
