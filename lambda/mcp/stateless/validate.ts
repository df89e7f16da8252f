/**
 * Request validation of the 2026-07-28 stateless shape, in the order the contract pins (after shape
 * detection has settled the protocol header): no posted responses (400), `Mcp-Method` (-32020),
 * required `_meta` (-32602), then — for name-routed methods — the body name (-32602) before `Mcp-Name`
 * (-32020). Every failure here is HTTP 400.
 */
import { JsonRpcCode, McpError } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import type { JsonObject, LoggingLevel } from '../types.js';
import { loggingLevels } from '../dispatch/logging-levels.js';
import { checkMethodHeader, checkNameHeader } from './headers.js';

const metaVersionKey = 'io.modelcontextprotocol/protocolVersion';
const metaCapabilitiesKey = 'io.modelcontextprotocol/clientCapabilities';
const metaLogLevelKey = 'io.modelcontextprotocol/logLevel';

/** A request-level validation failure: answered with HTTP 400 whatever its JSON-RPC code. */
export class StatelessRequestError extends McpError {
  constructor(code: number, message: string) {
    super(code, message);
    this.name = 'StatelessRequestError';
  }
}

/** HTTP status of a stateless error (mcp-method-surface "2026-07-28 protocol errors"). */
export function statusOf(error: McpError): number {
  if (error.code === JsonRpcCode.MethodNotFound) return 404;
  if (
    error instanceof StatelessRequestError ||
    error.code === JsonRpcCode.HeaderMismatch ||
    error.code === JsonRpcCode.MissingRequiredClientCapability ||
    error.code === JsonRpcCode.UnsupportedProtocolVersion
  ) {
    return 400;
  }
  // Ordinary method errors (unknown tool, invalid arguments) keep JSON-RPC's 200, as in the session-ful shape.
  return 200;
}

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
 * The body field `Mcp-Name` mirrors, per method. A `Map`, because the method comes from the request: on a
 * plain object `constructor` or `toString` would find an `Object.prototype` member.
 */
const routedField: ReadonlyMap<string, string> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
]);

/**
 * For name-routed methods: the body name must be a string (-32602: an invalid body, not a routing
 * mismatch) and `Mcp-Name` must match it. Returns the name (undefined for other methods).
 */
export function checkRouting(
  headers: Headers,
  method: string,
  params: JsonObject | undefined,
): { name: string | undefined } | McpError {
  const field = routedField.get(method);
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
