/**
 * Shaping of 2026-07-28 results (mcp-method-surface "2026-07-28 result types and multi-round input",
 * "server identity metadata", "cacheable results"): every result carries `resultType`; results carry
 * `_meta["io.modelcontextprotocol/serverInfo"]` unless the server opted out; the six cacheable surfaces
 * carry `ttlMs`/`cacheScope` on complete results only, forced to 0/private on retries; an
 * `input_required` result is checked against the client's declared capabilities (-32021).
 */
import { JsonRpcCode, McpError } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import type { CacheSurface, Runtime } from '../runtime.js';
import type { InputRequest, JsonObject } from '../types/index.js';

const serverInfoKey = 'io.modelcontextprotocol/serverInfo';

/** A handler result before shaping: its own fields plus the multi-round ones. */
export interface RawResult {
  fields: JsonObject;
  resultType: 'complete' | 'input_required';
  inputRequests: Record<string, InputRequest> | undefined;
  requestState: string | undefined;
}

/** The -32021 error for capabilities the client did not declare. */
export function missingCapabilityError(required: JsonObject): McpError {
  return new McpError(JsonRpcCode.MissingRequiredClientCapability, 'Missing required client capability', {
    data: { requiredCapabilities: required },
  });
}

/** Adds the runtime-owned serverInfo key to `_meta`, keeping the handler's other keys. */
function withServerInfo(rt: Runtime, meta: unknown): JsonObject | undefined {
  const base = isObject(meta) ? meta : undefined;
  if (!rt.options.includeServerInfoMetadata) return base;
  const { name, version, title } = rt.options;
  const info: JsonObject = title === undefined ? { name, version } : { name, version, title };
  return { ...base, [serverInfoKey]: info };
}

/**
 * A complete result: the fields, `resultType: "complete"`, `_meta` and — for a cacheable surface —
 * the configured hint, or 0/private when `isRetry` (inputs are not part of the cache key).
 */
export function completeResult(
  rt: Runtime,
  fields: JsonObject,
  surface?: CacheSurface,
  isRetry = false,
): JsonObject {
  const result: JsonObject = { ...fields, resultType: 'complete' };
  const meta = withServerInfo(rt, fields._meta);
  if (meta === undefined) delete result._meta;
  else result._meta = meta;
  if (surface !== undefined) {
    const hint = rt.options.cacheHints[surface];
    result.ttlMs = isRetry ? 0 : hint.ttlMs;
    result.cacheScope = isRetry ? 'private' : hint.cacheScope;
  }
  return result;
}

/** An `input_required` result: never caching hints, never the complete-result fields. */
export function inputRequiredResult(
  rt: Runtime,
  raw: RawResult,
  meta: unknown,
  wireState: string | undefined,
): JsonObject {
  const result: JsonObject = { resultType: 'input_required' };
  if (raw.inputRequests !== undefined) {
    result.inputRequests = raw.inputRequests as unknown as JsonObject;
  }
  if (wireState !== undefined) result.requestState = wireState;
  const withMeta = withServerInfo(rt, meta);
  if (withMeta !== undefined) result._meta = withMeta;
  return result;
}

/**
 * Splits a handler result into its own fields and the multi-round ones, validating the latter: an
 * unknown `resultType`, or an `input_required` result with neither `inputRequests` nor `requestState`,
 * is a handler bug (TypeError → sanitized -32603).
 */
export function splitResult(result: unknown): RawResult {
  if (!isObject(result)) throw new TypeError('handler returned no result object');
  const { resultType, inputRequests, requestState, ...fields } = result;
  if (resultType !== undefined && resultType !== 'complete' && resultType !== 'input_required') {
    throw new TypeError('handler returned an unknown resultType');
  }
  if (resultType !== 'input_required') {
    return { fields, resultType: 'complete', inputRequests: undefined, requestState: undefined };
  }
  const requests = isObject(inputRequests)
    ? (inputRequests as unknown as RawResult['inputRequests'])
    : undefined;
  const state = typeof requestState === 'string' ? requestState : undefined;
  if (requests === undefined && state === undefined) {
    throw new TypeError('input_required result without inputRequests or requestState');
  }
  return { fields, resultType: 'input_required', inputRequests: requests, requestState: state };
}
