/**
 * Domain errors of the BOS app. They carry a string `code` and are never sent as they are: the
 * platform turns them into HTTP/JSON-RPC answers with fixed, safe messages (STYLE habit 3).
 */

/**
 * Why a bearer token was refused. `verifier_unavailable`: the issuer's keys could not be fetched, so
 * the token was neither accepted nor found invalid.
 */
export type AuthErrorCode = 'missing_token' | 'invalid_token' | 'insufficient_scope' | 'verifier_unavailable';

/** Authentication failed; `code` picks the 401/403 answer. The token itself is never kept here. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A value in the platform configuration is unusable (e.g. `MCP_ENDPOINT` is not an absolute URL). */
export class BosConfigError extends Error {
  override readonly name = 'BosConfigError';
  readonly code = 'invalid_config';
}
