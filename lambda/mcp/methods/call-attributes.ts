/**
 * The telemetry attributes of a call (`CallAttributes`), taken from the parsed body and the headers. Each
 * value comes from a closed set, because both are client text: a method the runtime knows, a tool it has
 * registered, a protocol version shaped like a date. Anything else becomes `other` / `unknown` / absent.
 */
import type { CallAttributes, JsonObject } from '../types/index.js';
import { clientNotifications, methods } from './table.js';

const DATED_VERSION = /^\d{4}-\d{2}-\d{2}$/;

function protocolVersionOf(headers: Headers, message: JsonObject | undefined): string | undefined {
  const header = headers.get('mcp-protocol-version');
  if (header !== null) return DATED_VERSION.test(header) ? header : undefined;
  const params = message?.params;
  const requested =
    message?.method === 'initialize' &&
    typeof params === 'object' &&
    params !== null &&
    !Array.isArray(params)
      ? params.protocolVersion
      : undefined;
  return typeof requested === 'string' && DATED_VERSION.test(requested) ? requested : undefined;
}

/**
 * Attributes of one POSTed JSON-RPC message (or of a batch / a GET or DELETE when `message` is absent).
 * @param hasTool whether a tool of that name is registered
 */
export function callAttributes(
  headers: Headers,
  message: JsonObject | 'batch' | undefined,
  hasTool: (name: string) => boolean,
  httpMethod = 'POST',
): CallAttributes {
  if (message === undefined || message === 'batch') {
    const version = protocolVersionOf(headers, undefined);
    return {
      method: message ?? httpMethod,
      ...(version === undefined ? {} : { protocolVersion: version }),
    };
  }
  const raw = message.method;
  const method =
    typeof raw === 'string'
      ? methods.has(raw) || clientNotifications.has(raw)
        ? raw
        : 'other'
      : 'result' in message || 'error' in message
        ? 'response'
        : 'other';
  const version = protocolVersionOf(headers, message);
  let toolName: string | undefined;
  if (method === 'tools/call') {
    const params = message.params;
    const name =
      typeof params === 'object' && params !== null && !Array.isArray(params) ? params.name : undefined;
    toolName = typeof name === 'string' && hasTool(name) ? name : 'unknown';
  }
  return {
    method,
    ...(toolName === undefined ? {} : { toolName }),
    ...(version === undefined ? {} : { protocolVersion: version }),
  };
}
