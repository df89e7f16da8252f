import type { Principal } from '../../mcp/index.js';

/**
 * Port: turns a bearer token into the caller. Implementations throw `AuthError` with
 * `invalid_token` or `insufficient_scope`; they never log or keep the token.
 */
export interface TokenVerifier {
  /** Issuer whose tokens are accepted; advertised as the authorization server in RFC 9728 metadata. */
  readonly issuer?: string;
  /** Scope every caller must hold; named in the 403 challenge. */
  readonly requiredScope?: string;
  verify(token: string): Promise<Principal>;
}
