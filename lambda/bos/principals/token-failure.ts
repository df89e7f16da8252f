import { errors as joseErrors } from 'jose';
import { AuthError } from '../errors.js';

/**
 * Maps a jose failure to an {@link AuthError} with a fixed, safe reason. jose's own message is never
 * reused: it may quote claim values. Only the class (and, for claims, the claim name) picks the text.
 *
 * A JWKS that cannot be fetched (timeout, network failure, non-200, unparsable body) is not the
 * caller's fault: it becomes `verifier_unavailable` (HTTP 503) so a client keeps its valid token and
 * retries, instead of discarding it after a 401 `invalid_token`.
 */
export function tokenFailure(error: unknown): AuthError {
  if (isJwksOutage(error)) {
    return new AuthError('verifier_unavailable', 'The token could not be checked now; try again.', {
      cause: error,
    });
  }
  return new AuthError('invalid_token', reasonOf(error), { cause: error });
}

function isJwksOutage(error: unknown): boolean {
  if (error instanceof joseErrors.JWKSTimeout) return true;
  // jose throws the base JOSEError only for a failed JWKS response (non-200, bad JSON); a fetch that
  // never got a response (ECONNREFUSED, DNS) surfaces as a non-jose TypeError.
  if (error instanceof joseErrors.JOSEError) return error.code === 'ERR_JOSE_GENERIC';
  return true;
}

function reasonOf(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return claimReason(error.claim);
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'The token signing algorithm is not accepted.';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'The token was signed with an unknown key.';
  if (error instanceof joseErrors.JWKSMultipleMatchingKeys) return 'The token key is ambiguous.';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The token signature is invalid.';
  return 'The token is invalid.';
}

function claimReason(claim: string): string {
  switch (claim) {
    case 'iss':
      return 'The token was issued by another issuer.';
    case 'aud':
      return 'The token was not issued for this resource.';
    case 'nbf':
      return 'The token is not yet valid.';
    case 'exp':
      return 'The token has expired.';
    case 'sub':
      return 'The token has no subject.';
    default:
      return 'The token claims are not valid for this resource.';
  }
}
