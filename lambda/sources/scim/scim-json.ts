/**
 * Reading SCIM responses as RFC 7643 §2.1 says to: attribute names and schema URNs are case-insensitive,
 * so a list response's top-level keys are lower-cased (`resources`, `totalresults`) and every user
 * attribute is read with {@link at} (`userName`, `meta.lastModified`, the enterprise extension's URN). A body is read only when its media
 * type is `application/scim+json` or `application/json` (parameters allowed); anything else is a response
 * the adapter cannot trust (`source_unavailable`, `bad_response`).
 */
import { headerValue, ProviderError } from '../kernel/index.js';
import type { HttpResult } from '../kernel/index.js';

type Json = Record<string, unknown>;

const MEDIA_TYPES: readonly string[] = ['application/scim+json', 'application/json'];

/** Whether `value` is a plain JSON object. */
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `object[name]`, else the value of the first key equal to `name` without case: a server spelling names
 * as the RFC does pays one property read, another one a scan of the object's keys.
 */
export function at(object: Json, name: string): unknown {
  const exact = object[name];
  if (exact !== undefined) return exact;
  const wanted = name.toLowerCase();
  // Lengths first: lower-casing only keys that could match keeps a miss (an attribute not sent) cheap.
  for (const key in object)
    if (key.length === wanted.length && key.toLowerCase() === wanted) return object[key];
  return undefined;
}

/** A deep copy with every object key lower-cased (values untouched). */
export function lowerKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerKeys);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) out[key.toLowerCase()] = lowerKeys(child);
  return out;
}

/** Whether a `Content-Type` header names a SCIM or JSON body (the media type parsed, not substring-matched). */
export function isScimMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPES.includes(type);
}

/**
 * The body of a SCIM response, its top-level keys lower-cased (users are read with {@link at}); throws
 * `source_unavailable` for a body it cannot read.
 */
export function scimBody(result: HttpResult): unknown {
  if (!isScimMediaType(headerValue(result.headers, 'content-type')))
    throw new ProviderError('source_unavailable', 'bad_response', result.status);
  try {
    const body: unknown = JSON.parse(result.body.toString('utf8'));
    if (!isObject(body)) return body;
    const out: Json = {};
    for (const [key, child] of Object.entries(body)) out[key.toLowerCase()] = child;
    return out;
  } catch {
    throw new ProviderError('source_unavailable', 'invalid_json', result.status);
  }
}

/** One list response page (RFC 7644 §3.4.2), keys lower-cased. */
export interface ScimListPage {
  readonly items: readonly unknown[];
  readonly totalResults: number | undefined;
  readonly nextCursor: unknown;
}

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/**
 * Reads a list response. `Resources` may be left out only when there is nothing on the page (RFC 7644
 * §3.4.2: "totalResults" 0, or a start past the total); a page that claims people without a readable
 * `Resources` array fails the source rather than ending it short.
 */
export function readListPage(body: unknown, startIndex: number | undefined): ScimListPage {
  if (!isObject(body)) throw new ProviderError('source_unavailable', 'invalid_response');
  const total = count(body['totalresults']);
  const resources = body['resources'];
  if (Array.isArray(resources))
    return { items: resources, totalResults: total, nextCursor: body['nextcursor'] };
  const nothingHere = total !== undefined && (total === 0 || (startIndex ?? 1) > total);
  if (resources === undefined && nothingHere)
    return { items: [], totalResults: total, nextCursor: undefined };
  throw new ProviderError('source_unavailable', 'invalid_response');
}

/** The `scimType` of a SCIM error body (RFC 7644 §3.12), lower-cased; undefined when it has none. */
export function scimTypeOf(body: unknown): string | undefined {
  const type = isObject(body) ? body['scimtype'] : undefined;
  return typeof type === 'string' ? type.toLowerCase() : undefined;
}
