/**
 * The runtime's two kinds of error (STYLE.md habit 3):
 * - wire errors (`McpError`) carry a JSON-RPC code and a message that is safe to send;
 * - domain errors carry a string `code` and never reach a client as-is.
 */
import type { JsonValue } from './json/wire.js';

/**
 * Every JSON-RPC error code the product sends, each with one meaning (docs/errors.md lists them with what a
 * client should do; a test keeps the two equal). Codes of the server-defined range (-32000…-32099) that are
 * not the MCP SDK's or the protocol's are ours.
 */
export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The call's work was stopped at its time limit. Same value as the official SDK's `ErrorCode.RequestTimeout`. */
  RequestTimeout: -32001,
  /** `tasks/result` waited as long as one invocation may; the task is still running (not a failure). */
  TaskStillRunning: -32010,
  /** HTTP 401: no bearer token, or one that does not verify (the function's and API Gateway's own 401). */
  Unauthorized: -32011,
  /** HTTP 403: the token lacks the required scope. */
  Forbidden: -32013,
  /** HTTP 503: the authorization server's keys could not be fetched; the token may be fine. */
  AuthUnavailable: -32014,
  /**
   * HTTP 429: the caller's or its tenant's request limit for the current window is used up; `data.bucket` says
   * which, `Retry-After` when the window ends. The method surface names no code for it; 29 echoes the status,
   * as -32011 and -32013 echo theirs.
   */
  RateLimited: -32029,
  /** LSP's RequestCancelled; used when `notifications/cancelled` ends a call that still owes an HTTP reply. */
  RequestCancelled: -32800,
  /** 2026-07-28 `HeaderMismatch` (mcp-2026-notes §1.8). */
  HeaderMismatch: -32020,
  /** 2026-07-28 `MissingRequiredClientCapability`, `data.requiredCapabilities` (mcp-2026-notes §1.8). */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28 `UnsupportedProtocolVersion` (mcp-2026-notes §1.8). */
  UnsupportedProtocolVersion: -32022,
} as const;

/** A JSON-RPC error whose message (and data) may be sent to the client verbatim. */
export class McpError extends Error {
  readonly code: number;
  readonly data: JsonValue | undefined;

  constructor(code: number, message: string, options?: { data?: JsonValue; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = 'McpError';
    this.code = code;
    this.data = options?.data;
  }
}

/** Shorthand for the most common wire error: -32602 with a safe message. */
export class InvalidParamsError extends McpError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(JsonRpcCode.InvalidParams, message, options);
    this.name = 'InvalidParamsError';
  }
}

/**
 * A product failure a tool wants the model to see. With `expose` (default) the runtime answers with an
 * `isError: true` tool result carrying `message`; without it the error is treated like any other throw
 * (a generic -32603, detail only in the server log).
 */
export class ToolError extends Error {
  readonly code: string;
  readonly expose: boolean;

  constructor(message: string, options?: { code?: string; expose?: boolean; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = 'ToolError';
    this.code = options?.code ?? 'tool_error';
    this.expose = options?.expose ?? true;
  }
}

/**
 * Thrown by a store whose backend cannot answer now (sessions, streams, request state, client replies, or
 * an application store such as a directory). Before the response has started the runtime answers HTTP 503
 * with `Retry-After` and -32603 "<store> store unavailable", whichever path the call took; after an SSE
 * stream started, its final frame carries that error.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'store_unavailable';
  /** Which store, as clients see it in the message: `session`, `stream`, `directory`, … */
  readonly store: string;

  constructor(store: string, message = `${store} store unavailable`, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
    this.store = store;
  }

  /** The message a client may see (never the backend's own error text). */
  get wireMessage(): string {
    return `${this.store} store unavailable`;
  }
}

/**
 * The task store cannot answer (network, throttling, outage). A `StoreUnavailableError` of the `task`
 * store, so a request that needed it gets the one outage answer: HTTP 503 with `Retry-After` and
 * -32603 "task store unavailable".
 */
export class TaskStoreUnavailableError extends StoreUnavailableError {
  constructor(message = 'task store unavailable', options?: { cause?: unknown }) {
    super('task', message, options);
    this.name = 'TaskStoreUnavailableError';
  }
}

/** Thrown by a `SessionStore` whose backend cannot answer; the runtime answers HTTP 503 at once. */
export class SessionStoreUnavailableError extends StoreUnavailableError {
  constructor(message = 'session store unavailable', options?: { cause?: unknown }) {
    super('session', message, options);
    this.name = 'SessionStoreUnavailableError';
  }
}

/**
 * The store outage behind an error or behind the wire error made from it, if any: lets a path that has not
 * answered yet turn a tool's or hook's failure into the one outage answer (503).
 */
export function outageOf(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  if (error instanceof McpError && error.cause instanceof StoreUnavailableError) return error.cause;
  return undefined;
}

/** Abort reason used when a tool runs past its timeout or the invocation deadline. */
export class ToolTimeoutError extends Error {
  readonly code = 'tool_timeout';

  constructor(message = 'tool timed out', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolTimeoutError';
  }
}

const cancelMessages = {
  cancelled: 'request cancelled',
  client_disconnected: 'client disconnected',
  client_stalled: 'client stopped reading',
} as const;

/** Abort reason used when the client cancels a request, goes away, or stops reading. */
export class RequestCancelledError extends Error {
  /** `client_stalled`: the client stopped reading; unlike a disconnect, it ends even resumable work. */
  readonly code: 'cancelled' | 'client_disconnected' | 'client_stalled';

  constructor(code: 'cancelled' | 'client_disconnected' | 'client_stalled', options?: { cause?: unknown }) {
    super(cancelMessages[code], options);
    this.name = 'RequestCancelledError';
    this.code = code;
  }
}

/** The sanitized messages the runtime sends in place of anything unsafe. */
export const SafeMessage = {
  internal: 'Internal error',
  timeout: 'Request timed out',
  cancelled: 'Request cancelled',
  sessionStoreUnavailable: 'session store unavailable',
} as const;

/**
 * Maps any thrown value to a wire error. Only `McpError` passes through; timeouts and cancellations get
 * fixed safe messages; everything else becomes a generic internal error.
 */
export function toWireError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof StoreUnavailableError)
    return new McpError(JsonRpcCode.InternalError, error.wireMessage, { cause: error });
  if (error instanceof ToolTimeoutError) return new McpError(JsonRpcCode.RequestTimeout, SafeMessage.timeout);
  if (error instanceof RequestCancelledError) {
    return new McpError(JsonRpcCode.RequestCancelled, SafeMessage.cancelled);
  }
  return new McpError(JsonRpcCode.InternalError, SafeMessage.internal);
}
