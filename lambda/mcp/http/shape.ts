/**
 * Protocol-shape detection: which dispatcher serves a request. `mcp-protocol-version` has strict
 * precedence (mcp-method-surface "Transport + endpoint"): a 2026-07-28 header selects the stateless shape
 * even when `mcp-session-id` names a live session; a session-ful version (or no header) selects the
 * session-ful shape. Header/metadata disagreements fail closed with -32020, unknown versions with -32022.
 */
import { JsonRpcCode, McpError } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import type { JsonValue, ProtocolShape } from '../types/index.js';

/** The released stateless protocol version. */
export const statelessVersion = '2026-07-28';
/** Versions negotiated by `initialize`, latest first. */
export const sessionfulVersions: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
/** Every version this endpoint understands, in preference order (`server/discover` supportedVersions). */
export const supportedVersions: readonly string[] = [statelessVersion, ...sessionfulVersions];

const metaVersionKey = 'io.modelcontextprotocol/protocolVersion';

/** The routing decision for one request. */
export type ShapeDecision =
  | { shape: Extract<ProtocolShape, 'sessionful'>; headerVersion: string | undefined }
  | { shape: Extract<ProtocolShape, 'stateless'> }
  | { shape: 'error'; error: McpError };

/** The error for a version nobody here speaks (data shape from mcp-2026-notes §1.8). */
export function unsupportedVersionError(requested: string): McpError {
  return new McpError(JsonRpcCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
    data: { supported: [...supportedVersions], requested },
  });
}

function headerMismatch(detail: string): McpError {
  return new McpError(JsonRpcCode.HeaderMismatch, `Header mismatch: ${detail}`);
}

/**
 * Reads `mcp-protocol-version`. Repeated headers arrive comma-joined from `Headers.get`; distinct values
 * are a conflict (fail closed, never "first wins").
 */
export function protocolHeader(headers: Headers): { value: string | undefined; conflict: boolean } {
  const raw = headers.get('mcp-protocol-version');
  if (raw === null) return { value: undefined, conflict: false };
  if (!raw.includes(',')) return { value: raw.trim(), conflict: false };
  const values = new Set(raw.split(',').map((v) => v.trim()));
  const [first] = values;
  return { value: first, conflict: values.size > 1 };
}

/** `params._meta["io.modelcontextprotocol/protocolVersion"]` when it is a string. */
function metaVersion(message: JsonValue | undefined): string | undefined {
  if (!isObject(message) || !isObject(message.params)) return undefined;
  const meta = message.params._meta;
  if (!isObject(meta)) return undefined;
  const version = meta[metaVersionKey];
  return typeof version === 'string' ? version : undefined;
}

/**
 * Parsed-message detection for any binding (fixture version-detection-parsed-message.json): a single,
 * known `mcp-protocol-version` header wins outright; without a header, a string `_meta` version selects
 * (so stdio-like bindings may pick 2026-07-28 from metadata alone). Anything else is `unknown`. Unlike
 * the HTTP decision this never cross-checks header against metadata: that is an HTTP validation step.
 */
export type DetectedShape =
  | { shape: Extract<ProtocolShape, 'sessionful'>; version: string }
  | { shape: Extract<ProtocolShape, 'stateless'>; version: string }
  | { shape: 'unknown' };

/** Header values as non-HTTP bindings carry them (name → value or repeated values). */
export type HeaderValues = Readonly<Record<string, string | readonly string[] | undefined>>;

function shapeOfVersion(version: string | undefined): DetectedShape {
  if (version === statelessVersion) return { shape: 'stateless', version };
  if (version !== undefined && sessionfulVersions.includes(version)) return { shape: 'sessionful', version };
  return { shape: 'unknown' };
}

function headerValuesOf(headers: HeaderValues, name: string): string[] {
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    for (const item of typeof value === 'string' ? [value] : value) values.push(item.trim());
  }
  return values;
}

function detectParsed(message: unknown, headers: HeaderValues | undefined): DetectedShape {
  const values = new Set(headerValuesOf(headers ?? {}, 'mcp-protocol-version'));
  if (values.size > 1) return { shape: 'unknown' };
  const [header] = values;
  if (header !== undefined) return shapeOfVersion(header);
  return shapeOfVersion(metaVersion(message as JsonValue | undefined));
}

/**
 * Decides the shape of a request.
 * - HTTP binding: `detectShape(headers: Headers, message?)` → `ShapeDecision`, failing closed on header
 *   conflicts/mismatches (-32020) and unknown versions (-32022). `message` is the parsed single JSON-RPC
 *   object of a POST (omit for GET/DELETE and batches, which carry no per-message metadata check).
 * - Any binding: `detectShape(parsedMessage, headers?)` → `DetectedShape` (pure, never throws).
 */
export function detectShape(headers: Headers, message?: JsonValue): ShapeDecision;
export function detectShape(parsedMessage: unknown, headers?: HeaderValues): DetectedShape;
export function detectShape(
  first: unknown,
  second?: JsonValue | HeaderValues,
): ShapeDecision | DetectedShape {
  if (first instanceof Headers) return detectHttpShape(first, second as JsonValue | undefined);
  return detectParsed(first, isObject(second) ? (second as HeaderValues) : undefined);
}

/** The HTTP-binding decision (see `detectShape`). */
export function detectHttpShape(headers: Headers, message?: JsonValue): ShapeDecision {
  const header = protocolHeader(headers);
  if (header.conflict) {
    return { shape: 'error', error: headerMismatch('conflicting MCP-Protocol-Version header values') };
  }
  const meta = metaVersion(message);
  if (header.value === undefined) {
    if (meta === undefined || sessionfulVersions.includes(meta)) {
      return { shape: 'sessionful', headerVersion: undefined };
    }
    if (meta === statelessVersion) {
      return { shape: 'error', error: headerMismatch('missing required MCP-Protocol-Version header') };
    }
    return { shape: 'error', error: unsupportedVersionError(meta) };
  }
  if (header.value !== statelessVersion && !sessionfulVersions.includes(header.value)) {
    return { shape: 'error', error: unsupportedVersionError(header.value) };
  }
  if (meta !== undefined && meta !== header.value) {
    return { shape: 'error', error: headerMismatch('MCP-Protocol-Version does not match request metadata') };
  }
  return header.value === statelessVersion
    ? { shape: 'stateless' }
    : { shape: 'sessionful', headerVersion: header.value };
}
