/**
 * The part of Microsoft Graph's OData `$filter` that `/users` answers and the Entra adapter uses:
 * `startswith(prop,'v')`, `endswith(prop,'v')`, `prop eq 'v'`, `prop ne 'v'`, `and`, `or`, parentheses.
 * String literals are single-quoted with `''` for a quote (OData ABNF); comparisons ignore case, as Graph's
 * do on these properties. `endswith` and `ne` are "advanced queries": Graph refuses them unless the request
 * carries `ConsistencyLevel: eventual` and `$count=true` (learn.microsoft.com/graph/aad-advanced-queries).
 */

/** A `$filter` this replay does not understand (Graph answers 400 `Request_UnsupportedQuery`). */
export class FilterSyntaxError extends Error {
  override readonly name = 'FilterSyntaxError';
}

/** A parsed filter. */
export interface GraphFilter {
  readonly matches: (user: Readonly<Record<string, unknown>>) => boolean;
  /** Uses an operator that needs the advanced query headers. */
  readonly advanced: boolean;
}

const PROPERTIES = new Set([
  'id',
  'displayName',
  'mail',
  'userPrincipalName',
  'givenName',
  'surname',
  'mobilePhone',
]);
const TOKEN = /\s*(\(|\)|,|'(?:[^']|'')*'|[A-Za-z][A-Za-z0-9]*)/y;

type Predicate = (user: Readonly<Record<string, unknown>>) => boolean;

/** Parses `text`; throws {@link FilterSyntaxError}. */
export function parseGraphFilter(text: string): GraphFilter {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (match === null) {
      if (text.slice(at).trim() === '') break;
      throw new FilterSyntaxError(`unexpected input at ${at}`);
    }
    tokens.push(match[1]!);
  }
  let position = 0;
  let advanced = false;
  const peek = () => tokens[position];
  const take = (expected?: string): string => {
    const token = tokens[position++];
    if (token === undefined || (expected !== undefined && token.toLowerCase() !== expected))
      throw new FilterSyntaxError(`expected ${expected ?? 'a token'}`);
    return token;
  };
  const property = (): string => {
    const name = take();
    if (!PROPERTIES.has(name)) throw new FilterSyntaxError(`property ${name} is not filterable here`);
    return name;
  };
  const literal = (): string => {
    const token = take();
    if (!token.startsWith("'")) throw new FilterSyntaxError('expected a string literal');
    return token.slice(1, -1).replaceAll("''", "'").toLowerCase();
  };
  const valueOf = (user: Readonly<Record<string, unknown>>, name: string) => {
    const value = user[name];
    return typeof value === 'string' ? value.toLowerCase() : undefined;
  };
  const atom = (): Predicate => {
    const head = take();
    if (head === '(') {
      const inner = or();
      take(')');
      return inner;
    }
    const fn = head.toLowerCase();
    if (fn === 'startswith' || fn === 'endswith') {
      take('(');
      const name = property();
      take(',');
      const value = literal();
      take(')');
      if (fn === 'endswith') advanced = true;
      return fn === 'startswith'
        ? (u) => valueOf(u, name)?.startsWith(value) === true
        : (u) => valueOf(u, name)?.endsWith(value) === true;
    }
    position -= 1;
    const name = property();
    const op = take().toLowerCase();
    const value = literal();
    if (op === 'eq') return (u) => valueOf(u, name) === value;
    if (op === 'ne') {
      advanced = true;
      return (u) => valueOf(u, name) !== value;
    }
    throw new FilterSyntaxError(`operator ${op} is not supported`);
  };
  const and = (): Predicate => {
    let left = atom();
    while (peek()?.toLowerCase() === 'and') {
      take();
      const l = left;
      const r = atom();
      left = (u) => l(u) && r(u);
    }
    return left;
  };
  const or = (): Predicate => {
    let left = and();
    while (peek()?.toLowerCase() === 'or') {
      take();
      const l = left;
      const r = and();
      left = (u) => l(u) || r(u);
    }
    return left;
  };
  const matches = or();
  if (position !== tokens.length) throw new FilterSyntaxError('unexpected trailing input');
  return { matches, advanced };
}
