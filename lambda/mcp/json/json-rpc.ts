/**
 * JSON-RPC 2.0 framing: parsing a POST body into messages, classifying each message, and serialising
 * responses. Messages that cannot be answered with their own id get `id: null` (JSON-RPC 2.0 §5).
 */
import { JsonRpcCode, McpError } from '../errors.js';
import type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonValue,
} from './wire.js';

/** A classified JSON-RPC message. */
export type ClassifiedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; id: JsonRpcId; result?: JsonObject; error?: JsonRpcErrorObject }
  | { kind: 'invalid'; id: JsonRpcId | null; error: McpError };

/** A parsed POST body: one message, a batch (array), or a parse error. */
export type ParsedBody =
  | { kind: 'single'; value: JsonObject }
  | { kind: 'batch'; values: JsonValue[] }
  | { kind: 'error'; error: McpError };

/** Fixture `stateless-batch-rejected.json` pins this message for any non-object top-level value. */
export const notAnObjectMessage = 'Parse error: invalid JSON object';

/** Parses a body; never throws. */
export function parseBody(text: string): ParsedBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'error', error: new McpError(JsonRpcCode.ParseError, 'Parse error: invalid JSON') };
  }
  if (Array.isArray(value)) return { kind: 'batch', values: value as JsonValue[] };
  if (isObject(value)) return { kind: 'single', value };
  return { kind: 'error', error: new McpError(JsonRpcCode.ParseError, notAnObjectMessage) };
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function invalid(id: JsonRpcId | null, code: number, message: string): ClassifiedMessage {
  return { kind: 'invalid', id, error: new McpError(code, message) };
}

/** Classifies one JSON value as request, notification, client response, or invalid. */
export function classify(value: JsonValue): ClassifiedMessage {
  if (!isObject(value)) return invalid(null, JsonRpcCode.InvalidRequest, 'Invalid Request');
  const rawId = value.id;
  const id = isId(rawId) ? rawId : null;
  if (value.jsonrpc !== '2.0') {
    return invalid(id, JsonRpcCode.InvalidRequest, 'Invalid Request: jsonrpc must be "2.0"');
  }
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method === '') {
      return invalid(id, JsonRpcCode.InvalidRequest, 'Invalid Request: method must be a non-empty string');
    }
    // Fixture core-malformed-request.json pins a null id as a parse error answered with HTTP 200.
    if (rawId === null) return invalid(null, JsonRpcCode.ParseError, 'Parse error: id must not be null');
    if (rawId !== undefined && id === null) {
      return invalid(null, JsonRpcCode.InvalidRequest, 'Invalid Request: id must be a string or number');
    }
    const params = value.params;
    if (params !== undefined && !isObject(params)) {
      return invalid(id, JsonRpcCode.InvalidParams, 'Invalid params: params must be an object');
    }
    if (id === null) {
      const message: JsonRpcNotification = { jsonrpc: '2.0', method: value.method };
      if (params !== undefined) message.params = params;
      return { kind: 'notification', message };
    }
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method: value.method };
    if (params !== undefined) message.params = params;
    return { kind: 'request', message };
  }
  if (id !== null && ('result' in value || 'error' in value)) {
    const result = isObject(value.result) ? value.result : undefined;
    const error = isObject(value.error) ? (value.error as unknown as JsonRpcErrorObject) : undefined;
    return { kind: 'response', id, ...(result && { result }), ...(error && { error }) };
  }
  return invalid(id, JsonRpcCode.InvalidRequest, 'Invalid Request');
}

/** Serialises a success response (key order: jsonrpc, id, result). */
export function resultJson(id: JsonRpcId | null, result: JsonObject): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

/** Serialises an error response from a wire error. */
export function errorJson(id: JsonRpcId | null, error: McpError): string {
  const body: JsonRpcErrorObject = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return JSON.stringify({ jsonrpc: '2.0', id, error: body });
}

/** Serialises a notification (key order: jsonrpc, method, params). */
export function notificationJson(method: string, params?: JsonObject): string {
  return JSON.stringify(
    params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
  );
}

/** Serialises a server-to-client request. */
export function requestJson(id: JsonRpcId, method: string, params?: JsonObject): string {
  return JSON.stringify(
    params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
  );
}
