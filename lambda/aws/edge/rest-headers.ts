/**
 * Header and query maps of a REST v1 proxy event. API Gateway sends each twice: `headers` (last value wins)
 * and `multiValueHeaders` (every value); the multi-value form wins because it is the complete one
 * (reference-runtime-lessons §5.9). Maps are `Map`s keyed by lower-cased name, so keys such as `__proto__`
 * or `constructor` are plain data and never reach an object prototype.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

type SingleMap = APIGatewayProxyEvent['headers'] | null | undefined;
type MultiMap = APIGatewayProxyEvent['multiValueHeaders'] | null | undefined;

/** Own enumerable entries only; tolerates `null`/missing maps (API Gateway sends `null` when empty). */
function entriesOf<T>(map: Record<string, T | undefined> | null | undefined): [string, T][] {
  if (map === null || map === undefined || typeof map !== 'object') return [];
  const out: [string, T][] = [];
  for (const [key, value] of Object.entries(map))
    if (value !== undefined && value !== null) out.push([key, value]);
  return out;
}

/**
 * Merges a single-value and a multi-value map: names present in the multi-value map take all their values
 * from it; the rest come from the single-value map.
 */
function mergeMaps(single: SingleMap, multi: MultiMap, foldCase: boolean): Map<string, string[]> {
  const merged = new Map<string, string[]>();
  const keyOf = (name: string): string => (foldCase ? name.toLowerCase() : name);
  for (const [name, values] of entriesOf(multi)) {
    if (!Array.isArray(values)) continue;
    const key = keyOf(name);
    merged.set(key, [...(merged.get(key) ?? []), ...values.filter((v) => typeof v === 'string')]);
  }
  const fromMulti = new Set(merged.keys());
  for (const [name, value] of entriesOf(single)) {
    const key = keyOf(name);
    if (fromMulti.has(key) || typeof value !== 'string') continue;
    merged.set(key, [...(merged.get(key) ?? []), value]);
  }
  return merged;
}

/** Request headers by lower-cased name (HTTP names are case-insensitive; RFC 9110 §5.1). */
export function headerMap(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
): Map<string, string[]> {
  return mergeMaps(event.headers, event.multiValueHeaders, true);
}

/** Query parameters by exact name (query names are case-sensitive); values arrive already URL-decoded. */
export function queryMap(
  event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>,
): Map<string, string[]> {
  return mergeMaps(event.queryStringParameters, event.multiValueQueryStringParameters, false);
}
