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
  /**
   * Starts fetching what the first `verify` would otherwise wait for (a remote issuer's keys), so the wait
   * overlaps with the rest of a cold start. Optional; it never replaces a check: `verify` still verifies
   * every token, and fetches again itself when this failed. Rejects only with the fetch failure.
   */
  prepare?(): Promise<void>;
}
