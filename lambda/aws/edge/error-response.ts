/**
 * The few wire responses the adapter produces itself, before or outside the MCP runtime. Each carries a
 * JSON-RPC error with a fixed, safe message: no exception text, stack or configuration detail.
 */
import { JsonRpcCode, eventFrame } from '../../mcp/index.js';
import type { RestEventError } from './errors.js';

/** JSON-RPC 2.0 codes used here (JSON-RPC 2.0 §5.1), from the runtime's one table. */
export const JSON_RPC_PARSE_ERROR = JsonRpcCode.ParseError;
export const JSON_RPC_INVALID_REQUEST = JsonRpcCode.InvalidRequest;
export const JSON_RPC_INTERNAL_ERROR = JsonRpcCode.InternalError;

function errorBody(code: number, message: string): string {
  // `id: null`: the adapter never parsed the request, so it cannot know the id (JSON-RPC 2.0 §5).
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/** An HTTP response carrying one JSON-RPC error object. */
export function jsonRpcErrorResponse(status: number, code: number, message: string): Response {
  return new Response(errorBody(code, message), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/**
 * A malformed proxy event -> HTTP 400. An undecodable base64 body is a parse error (-32700): the bytes
 * that should hold the JSON-RPC message cannot even be recovered. Bad headers or methods make the HTTP
 * request itself invalid (-32600).
 */
export function restEventErrorResponse(error: RestEventError): Response {
  return error.code === 'invalid_base64'
    ? jsonRpcErrorResponse(400, JSON_RPC_PARSE_ERROR, 'Parse error: invalid base64 body')
    : jsonRpcErrorResponse(400, JSON_RPC_INVALID_REQUEST, 'Invalid Request');
}

/** An unexpected failure before the first byte -> a generic HTTP 500 JSON-RPC internal error. */
export function internalErrorResponse(): Response {
  return jsonRpcErrorResponse(500, JSON_RPC_INTERNAL_ERROR, 'Internal error');
}

/** The frame that reports a failure after the SSE stream has started (STYLE habit 5). */
export function sseInternalErrorFrame(): string {
  return eventFrame(errorBody(JSON_RPC_INTERNAL_ERROR, 'Internal error'), undefined, 'message');
}
