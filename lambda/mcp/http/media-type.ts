/**
 * Media-type parsing for `Content-Type` and `Accept` (RFC 9110 §8.3.1, §12.5.1). Media types are parsed,
 * never substring-matched: `application/jsonx` is not `application/json`.
 */

/** A parsed media type or media range; `type`/`subtype` are lower-cased, parameter names too. */
export interface MediaType {
  type: string;
  subtype: string;
  params: Record<string, string>;
}

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses one media type (`type/subtype *(; name=value)`); undefined when malformed. */
export function parseMediaType(value: string): MediaType | undefined {
  const parts = value.split(';');
  const essence = (parts[0] ?? '').trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0) return undefined;
  const type = essence.slice(0, slash);
  const subtype = essence.slice(slash + 1);
  if (!token.test(type) || !token.test(subtype)) return undefined;
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 1; i < parts.length; i++) {
    const param = (parts[i] ?? '').trim();
    if (param === '') continue;
    const eq = param.indexOf('=');
    if (eq <= 0) return undefined;
    const name = param.slice(0, eq).trim().toLowerCase();
    let raw = param.slice(eq + 1).trim();
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1);
    if (!token.test(name)) return undefined;
    params[name] = raw;
  }
  return { type, subtype, params };
}

/**
 * Parses an `Accept` header into its media ranges, dropping malformed entries and ranges with `q=0`
 * (RFC 9110 §12.4.2: weight 0 means "not acceptable").
 */
export function parseAccept(value: string): MediaType[] {
  const ranges: MediaType[] = [];
  for (const item of value.split(',')) {
    if (item.trim() === '') continue;
    const range = parseMediaType(item);
    if (range === undefined) continue;
    const q = range.params.q;
    if (q !== undefined && Number(q) === 0) continue;
    ranges.push(range);
  }
  return ranges;
}

/**
 * Whether the parsed ranges accept `mediaType` (`type/subtype`, lower-case). Wildcards count:
 * `*\/*` accepts everything and `text/*` accepts `text/event-stream` (docs/mcp-runtime.md).
 */
export function acceptsMediaType(ranges: readonly MediaType[], mediaType: string): boolean {
  const slash = mediaType.indexOf('/');
  const type = mediaType.slice(0, slash);
  const subtype = mediaType.slice(slash + 1);
  for (const range of ranges) {
    if (range.type === '*' && range.subtype === '*') return true;
    if (range.type === type && (range.subtype === '*' || range.subtype === subtype)) return true;
  }
  return false;
}

/**
 * Memoises a pure parser by its input string. Clients send the same `Accept`/`Content-Type` on every
 * request, so a tiny cache keeps parsing off the hot path; it is cleared when full to stay bounded.
 */
export function memoize<T>(parse: (value: string) => T, limit = 64): (value: string) => T {
  const cache = new Map<string, T>();
  return (value) => {
    const hit = cache.get(value);
    if (hit !== undefined) return hit;
    const parsed = parse(value);
    if (cache.size >= limit) cache.clear();
    cache.set(value, parsed);
    return parsed;
  };
}
