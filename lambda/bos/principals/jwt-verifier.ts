import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTPayload } from 'jose';
import type { Principal } from '../../mcp/index.js';
import { AuthError } from '../errors.js';
import type { TokenVerifier } from './token-verifier.js';

/** Options of {@link createJwtVerifier}. */
export interface JwtVerifierOptions {
  /** Expected `iss` (RFC 9068 §4: the resource server checks the issuer). */
  issuer: string;
  /** Expected `aud`: this resource (MCP authorization: tokens must be issued for this server, RFC 8707). */
  audience: string;
  /** The issuer's keys, inline or as a JWKS URL fetched (and cached) by jose. */
  jwks: JSONWebKeySet | URL;
  /** Scope the caller must hold; its absence gives `insufficient_scope`. @default undefined (none) */
  requiredScope?: string;
  /** Accepted signature algorithms; anything else (including `none`) is refused. @default ['RS256','ES256'] */
  algorithms?: readonly string[];
  /** Tolerated clock skew in seconds. @default 30 */
  clockToleranceSeconds?: number;
}

/**
 * A `jose`-based {@link TokenVerifier}: signature against the JWKS, `iss`, `aud`, `exp`/`nbf`, a `sub`,
 * then the required scope. Every jose failure becomes `invalid_token` so no library text escapes.
 */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const keys =
    options.jwks instanceof URL ? createRemoteJWKSet(options.jwks) : createLocalJWKSet(options.jwks);
  const algorithms = [...(options.algorithms ?? ['RS256', 'ES256'])];
  const clockTolerance = options.clockToleranceSeconds ?? 30;

  return {
    issuer: options.issuer,
    requiredScope: options.requiredScope,
    async verify(token: string): Promise<Principal> {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms,
          clockTolerance,
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (error) {
        throw new AuthError('invalid_token', reasonOf(error), { cause: error });
      }
      const subject = payload.sub;
      if (typeof subject !== 'string' || subject === '') {
        throw new AuthError('invalid_token', 'The token has no subject.');
      }
      const scopes = scopesOf(payload);
      if (options.requiredScope !== undefined && !scopes.includes(options.requiredScope)) {
        throw new AuthError('insufficient_scope', `The token lacks the ${options.requiredScope} scope.`);
      }
      return { subject, scopes };
    },
  };
}

/** Scopes from `scope` (RFC 9068 §2.2.3, space-separated) or, as some issuers send, an `scp` array. */
function scopesOf(payload: JWTPayload): string[] {
  const { scope, scp } = payload as { scope?: unknown; scp?: unknown };
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** A fixed, safe reason per failure class; jose's own message (which may quote claims) is not reused. */
function reasonOf(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return 'The token claims are not valid for this resource.';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'The token was signed with an unknown key.';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The token signature is invalid.';
  return 'The token is invalid.';
}
