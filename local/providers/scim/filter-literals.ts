/**
 * RFC 7644 §3.4.2.2 compare values are JSON strings, but SCIMMY's filter parser does not decode their
 * escapes (`\"` ends its string, `\\` stays doubled). The server decodes every string literal itself,
 * hands SCIMMY a filter whose literals are plain placeholders, and puts the decoded values back into the
 * parsed expression before matching, so a quote or backslash in a query is matched as the character it is.
 * SCIMMY's `match` also compares case-sensitively, while every string attribute the adapter filters on is
 * `caseExact: false` (RFC 7643 §4.1): values and a shadow copy of the users are folded (outside `meta`,
 * whose timestamps compare as dates) the way the platform compares text without case — Unicode
 * normalisation and caseless matching — as a server with Unicode-aware collation does.
 */
import SCIMMY from 'scimmy';
import { foldForMatch } from '../../../lambda/sources/index.js';

const LITERAL = /"(?:[^"\\]|\\.)*"/g;
const PLACEHOLDER = /^__v(\d+)__$/;

/** The filter with placeholders, and the decoded values; undefined when a literal is not a JSON string. */
export function extractLiterals(filter: string): { filter: string; values: string[] } | undefined {
  const values: string[] = [];
  let bad = false;
  const replaced = filter.replace(LITERAL, (literal) => {
    try {
      values.push(JSON.parse(literal) as string);
    } catch {
      bad = true;
    }
    return `"__v${values.length - 1}__"`;
  });
  // A quote left over opens a string that never closes.
  if (bad || replaced.replace(LITERAL, '').includes('"')) return undefined;
  return { filter: replaced, values };
}

function restore(node: unknown, values: readonly string[], lower: boolean): unknown {
  if (typeof node === 'string') {
    const match = PLACEHOLDER.exec(node);
    const value = match === null ? node : (values[Number(match[1])] ?? '');
    return lower && match !== null ? foldForMatch(value) : value;
  }
  if (Array.isArray(node)) return node.map((child) => restore(child, values, lower));
  if (typeof node === 'object' && node !== null)
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, restore(v, values, lower && k !== 'meta')]),
    );
  return node;
}

/** A deep copy with every string folded outside `meta`. */
export function caseFolded<T>(value: T, lower = true): T {
  if (typeof value === 'string') return (lower ? foldForMatch(value) : value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => caseFolded(v, lower)) as T;
  if (typeof value === 'object' && value !== null && !(value instanceof Date))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, caseFolded(v, lower && k !== 'meta')]),
    ) as T;
  return value;
}

/**
 * The users matching SCIMMY's parsed `filter` once the decoded values are put back, compared without case
 * against `folded` (`caseFolded(users)`, index for index).
 */
export function matchUsers<T>(
  filter: SCIMMY.Types.Filter,
  values: readonly string[],
  users: readonly T[],
  folded: readonly T[],
): T[] {
  const restored = new SCIMMY.Types.Filter(restore([...filter], values, true));
  const hits = new Set(restored.match([...folded] as never[]) as unknown[]);
  return users.filter((_, i) => hits.has(folded[i]));
}
