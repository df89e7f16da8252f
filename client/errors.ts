/**
 * Local errors of the consumer library. None of them is ever sent to a server; each carries a string
 * `code` so callers (and the CLI's exit codes) can branch without parsing messages.
 */

/** Base class: a failure the client detected itself. */
export class McpClientError extends Error {
  /** Stable machine-readable reason, e.g. `network`, `unexpected_content_type`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpClientError';
    this.code = code;
  }
}

/** The server answered with a non-2xx HTTP status (authentication, validation, routing failures). */
export class McpHttpStatusError extends McpClientError {
  readonly status: number;
  /** The JSON-RPC error object of the body, when the body was a JSON-RPC error response. */
  readonly rpcError: { code: number; message: string; data?: unknown } | undefined;
  /** `WWW-Authenticate` (or API Gateway's `x-amzn-Remapped-WWW-Authenticate`) on a 401/403. */
  readonly wwwAuthenticate: string | undefined;

  constructor(
    status: number,
    detail: {
      rpcError?: { code: number; message: string; data?: unknown };
      wwwAuthenticate?: string;
    },
    options?: { cause?: unknown },
  ) {
    const rpc = detail.rpcError ? `: JSON-RPC ${detail.rpcError.code} ${detail.rpcError.message}` : '';
    super('http_status', `HTTP ${status}${rpc}`, options);
    this.name = 'McpHttpStatusError';
    this.status = status;
    this.rpcError = detail.rpcError;
    this.wwwAuthenticate = detail.wwwAuthenticate;
  }
}

/** A JSON-RPC error response (top-level `error`) to one of our requests. */
export class McpRpcError extends McpClientError {
  readonly rpcCode: number;
  readonly data: unknown;

  constructor(rpcCode: number, message: string, data?: unknown) {
    super('jsonrpc_error', `JSON-RPC ${rpcCode}: ${message}`);
    this.name = 'McpRpcError';
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

/** The response broke the transport contract (wrong media type, unparseable JSON, wrong id …). */
export class McpProtocolError extends McpClientError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'McpProtocolError';
  }
}
