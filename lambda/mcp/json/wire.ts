/** JSON-RPC wire shapes and per-invocation facts shared by every part of the runtime. */

/** JSON value as it appears on the wire. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON-RPC id. `null` only appears in error responses to unparseable requests. */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId | null; result: JsonObject }
  | { jsonrpc: '2.0'; id: JsonRpcId | null; error: JsonRpcErrorObject };

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The caller, as established by authentication before the runtime sees the request. */
export interface Principal {
  /** Stable subject identifier (the token's `sub`). Sessions are bound to it. */
  subject: string;
  /** Granted OAuth scopes. */
  scopes: readonly string[];
  /**
   * The organisation the caller acts for, from the token claim the deployment names (`AUTH_TENANT_CLAIM`);
   * absent when the token carries none. The per-tenant rate limit pools the requests of one tenant.
   */
  tenant?: string;
}

/**
 * Per-invocation facts the adapter knows and the protocol layer needs. Nothing here is read from
 * request headers by the runtime itself.
 */
export interface McpInvocationContext {
  /** Adapter request id (Lambda's awsRequestId locally and deployed). */
  requestId?: string;
  /** Absolute epoch-ms instant by which the response must be complete (Lambda deadline). */
  deadline?: number;
  /** Fires when the client goes away or the invocation is being torn down. */
  signal?: AbortSignal;
  /** The authenticated caller, if authentication ran. */
  principal?: Principal;
  /** Client IP as seen by the front (REST v1: `requestContext.identity.sourceIp`). */
  sourceIp?: string;
}

/** The two protocol shapes served on one endpoint. */
export type ProtocolShape = 'sessionful' | 'stateless';

export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
