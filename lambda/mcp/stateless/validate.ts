/**
 * Request validation of the 2026-07-28 stateless shape, in the order the contract pins (after shape
 * detection has settled the protocol header): no posted responses (400), `Mcp-Method` (-32020),
 * required `_meta` (-32602), then — for name-routed methods — the body name (-32602) before `Mcp-Name`
 * (-32020). Every failure here is HTTP 400.
 */
import type { McpError } from '../errors.js';
import { JsonRpcCode } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import type { JsonObject, LoggingLevel } from '../types/index.js';
import { methods } from '../methods/index.js';
import { loggingLevels } from '../sse/logging-levels.js';
import { StatelessRequestError } from './errors.js';
import { checkMethodHeader, checkNameHeader } from './headers.js';

const metaVersionKey = 'io.modelcontextprotocol/protocolVersion';
const metaCapabilitiesKey = 'io.modelcontextprotocol/clientCapabilities';
const metaLogLevelKey = 'io.modelcontextprotocol/logLevel';

/** What every valid stateless message declares in `_meta`. */
export interface RequestMeta {
  meta: JsonObject;
  clientCapabilities: JsonObject;
  /** The client's `logLevel`; without it the server MUST NOT emit `notifications/message`. */
  logLevel: LoggingLevel | undefined;
}

function invalidMeta(key: string): StatelessRequestError {
  return new StatelessRequestError(JsonRpcCode.InvalidParams, `Invalid params: missing or invalid ${key}`);
}

/** Checks `Mcp-Method` and the required `_meta` keys. */
export function checkEnvelope(
  headers: Headers,
  method: string,
  params: JsonObject | undefined,
): RequestMeta | McpError {
  const header = checkMethodHeader(headers, method);
  if (header !== undefined) return header;
  const meta = params?._meta;
  if (!isObject(meta) || typeof meta[metaVersionKey] !== 'string') return invalidMeta(metaVersionKey);
  const capabilities = meta[metaCapabilitiesKey];
  if (!isObject(capabilities)) return invalidMeta(metaCapabilitiesKey);
  const level = meta[metaLogLevelKey];
  if (level !== undefined && !loggingLevels.includes(level as LoggingLevel))
    return invalidMeta(metaLogLevelKey);
  return { meta, clientCapabilities: capabilities, logLevel: level as LoggingLevel | undefined };
}

/**
 * For name-routed methods (the table's `nameParam`, which `Mcp-Name` mirrors): the body name must be a string (-32602: an invalid body, not a routing
 * mismatch) and `Mcp-Name` must match it. Returns the name (undefined for other methods).
 */
export function checkRouting(
  headers: Headers,
  method: string,
  params: JsonObject | undefined,
): { name: string | undefined } | McpError {
  const spec = methods.get(method);
  const field = spec?.shapes.includes('stateless') === true ? spec.nameParam : undefined;
  if (field === undefined) return { name: undefined };
  const name = params?.[field];
  if (typeof name !== 'string' || name === '') {
    return new StatelessRequestError(JsonRpcCode.InvalidParams, `Invalid params: ${field} is required`);
  }
  return checkNameHeader(headers, name) ?? { name };
}

/** Optional retry inputs: `inputResponses` must be an object and `requestState` a string when present. */
export function retryInputs(params: JsonObject | undefined): {
  inputResponses: JsonObject | undefined;
  requestState: string | undefined;
} {
  const inputResponses = params?.inputResponses;
  const requestState = params?.requestState;
  if (inputResponses !== undefined && !isObject(inputResponses)) {
    throw new StatelessRequestError(
      JsonRpcCode.InvalidParams,
      'Invalid params: inputResponses must be an object',
    );
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw new StatelessRequestError(
      JsonRpcCode.InvalidParams,
      'Invalid params: requestState must be a string',
    );
  }
  return { inputResponses, requestState };
}
