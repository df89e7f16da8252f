/** The stateless shape's request-level error and the HTTP status of any error it answers. */
import { JsonRpcCode, McpError } from '../errors.js';

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
