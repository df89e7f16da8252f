/**
 * Local (domain) errors of the Lambda edge. They carry a string `code` and are never sent as-is: the handler
 * maps them to a safe JSON-RPC wire response (see `error-response.ts`).
 */

/** Why a REST v1 proxy event could not become a `Request`. */
export type RestEventErrorCode = 'invalid_base64' | 'invalid_header' | 'invalid_event';

/** The proxy event is malformed in a way the client caused (answered with HTTP 400). */
export class RestEventError extends Error {
  override readonly name = 'RestEventError';
  readonly code: RestEventErrorCode;

  constructor(code: RestEventErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
