/**
 * 2026-07-28 routing headers (mcp-2026-notes §1.3; mcp-method-surface "2026-07-28 protocol errors"):
 * `Mcp-Method` must equal the body method, `Mcp-Name` the body name/uri of `tools/call`, `prompts/get`
 * and `resources/read`, and `Mcp-Param-{Name}` the argument a tool marks with `x-mcp-header`. Every
 * failure is -32020 with the message the fixtures pin.
 */
import { JsonRpcCode, McpError } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import type { JsonObject } from '../types/index.js';

const sentinelPrefix = '=?base64?';
const sentinelSuffix = '?=';
const base64Shape = /^[A-Za-z0-9+/]*={0,2}$/;
const headerToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A -32020 "Header mismatch: <detail>" error. */
export function headerMismatch(detail: string): McpError {
  return new McpError(JsonRpcCode.HeaderMismatch, `Header mismatch: ${detail}`);
}

/**
 * The values of one header. `Headers.get` joins repeated fields with ", "; identical repeats collapse
 * to one value and distinct ones are reported as a conflict (fail closed, never "first wins"). A value
 * that itself contains ", " is taken whole first, so a legitimate comma never reads as a conflict.
 */
function headerValue(
  headers: Headers,
  name: string,
  expected: string,
): { value: string | undefined; conflict: boolean } {
  const raw = headers.get(name);
  if (raw === null) return { value: undefined, conflict: false };
  if (raw === expected || !raw.includes(',')) return { value: raw, conflict: false };
  const values = new Set(raw.split(',').map((v) => v.trim()));
  const [first] = values;
  return { value: first, conflict: values.size > 1 };
}

/**
 * Decodes the `=?base64?…?=` sentinel: canonical Base64 (re-encoding gives the same text) of valid
 * UTF-8. Returns undefined for a value that is not the exact, lowercase sentinel form, and null when it
 * is the sentinel but malformed.
 */
export function decodeSentinel(value: string): string | null | undefined {
  if (!value.startsWith(sentinelPrefix)) return undefined;
  if (value.length < sentinelPrefix.length + sentinelSuffix.length || !value.endsWith(sentinelSuffix)) {
    return null;
  }
  const payload = value.slice(sentinelPrefix.length, -sentinelSuffix.length);
  if (payload.length % 4 !== 0 || !base64Shape.test(payload)) return null;
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.toString('base64') !== payload) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Compares a routing header value with the body. A value that looks like the sentinel but is malformed
 * is still accepted when it literally equals the body (SEP-2243: a value without the exact wrapper is a
 * literal); otherwise it is reported as malformed (fixture conformance-2026-routing-name-base64.json).
 */
function matches(value: string, body: string): 'ok' | 'mismatch' | 'malformed' {
  const decoded = decodeSentinel(value);
  if (decoded === undefined) return value === body ? 'ok' : 'mismatch';
  if (decoded === null) return value === body ? 'ok' : 'malformed';
  return decoded === body ? 'ok' : 'mismatch';
}

/** `Mcp-Method` must be present, unambiguous and equal to the body method. */
export function checkMethodHeader(headers: Headers, method: string): McpError | undefined {
  const header = headerValue(headers, 'mcp-method', method);
  if (header.value === undefined) return headerMismatch('missing required Mcp-Method header');
  if (header.conflict) return headerMismatch('conflicting Mcp-Method header values');
  if (header.value !== method) return headerMismatch('Mcp-Method does not match request method');
  return undefined;
}

/** `Mcp-Name` must be present, unambiguous and (decoded) equal to the body's name or uri. */
export function checkNameHeader(headers: Headers, name: string): McpError | undefined {
  const header = headerValue(headers, 'mcp-name', name);
  if (header.value === undefined) return headerMismatch('missing required Mcp-Name header');
  if (header.conflict) return headerMismatch('conflicting Mcp-Name header values');
  const verdict = matches(header.value, name);
  if (verdict === 'malformed') return headerMismatch('malformed Mcp-Name Base64 encoding');
  if (verdict === 'mismatch') return headerMismatch('Mcp-Name does not match request parameters');
  return undefined;
}

/** The `x-mcp-header` names of a tool's input properties: property → header suffix. */
export function mirroredParams(inputSchema: JsonObject): [string, string][] {
  const properties = inputSchema.properties;
  if (!isObject(properties)) return [];
  const out: [string, string][] = [];
  for (const [property, schema] of Object.entries(properties)) {
    const header = isObject(schema) ? schema['x-mcp-header'] : undefined;
    // Only RFC 9110 token characters can form a header name (`Headers.get` throws on anything else).
    if (typeof header === 'string' && headerToken.test(header)) out.push([property, header]);
  }
  return out;
}

function wireText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * Servers that read the body MUST validate `Mcp-Param-*` (mcp-2026-notes §1.3): a mirrored primitive
 * argument needs its header with the same (decoded) value; a header without the argument is a mismatch.
 */
export function checkParamHeaders(
  headers: Headers,
  params: readonly [string, string][],
  args: JsonObject,
): McpError | undefined {
  for (const [property, suffix] of params) {
    const body = wireText(args[property]);
    const header = headerValue(headers, `mcp-param-${suffix}`, body ?? '');
    if (body === undefined) {
      if (header.value !== undefined && args[property] === undefined) {
        return headerMismatch(`Mcp-Param-${suffix} has no matching argument`);
      }
      continue;
    }
    if (header.value === undefined) return headerMismatch(`missing required Mcp-Param-${suffix} header`);
    if (header.conflict) return headerMismatch(`conflicting Mcp-Param-${suffix} header values`);
    const verdict = matches(header.value, body);
    if (verdict === 'malformed') return headerMismatch(`malformed Mcp-Param-${suffix} Base64 encoding`);
    if (verdict === 'mismatch') return headerMismatch(`Mcp-Param-${suffix} does not match arguments`);
  }
  return undefined;
}
