/**
 * Bearer token checks for the local replay servers: the token in `Authorization: Bearer …` must be a JWT
 * access token that the local authorization server signed (verified against its `/jwks` with `jose`),
 * for this API (`aud`), unexpired, and carry the scope the API demands. So the token half of an adapter's
 * conversation with a replayed vendor is real end to end.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';

/** What a replay server needs to check tokens. */
export interface BearerCheckOptions {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** The API's resource indicator: tokens must name it in `aud`. */
  readonly audience: string;
}

/** The outcome of one check: the claims, or why the token is refused (401 missing/invalid, 403 scope). */
export type BearerOutcome =
  | { readonly ok: true; readonly claims: JWTPayload }
  | { readonly ok: false; readonly status: 401 | 403; readonly reason: string };

/** A checker bound to one issuer and audience (its JWKS is fetched once and cached by `jose`). */
export function createBearerCheck(options: BearerCheckOptions) {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl));
  return async (authorization: string | undefined, requiredScope: string): Promise<BearerOutcome> => {
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(authorization ?? '');
    if (match === null) return { ok: false, status: 401, reason: 'missing bearer token' };
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(match[1]!, jwks, {
        issuer: options.issuer,
        audience: options.audience,
        typ: 'at+jwt',
      }));
    } catch {
      return { ok: false, status: 401, reason: 'invalid token' };
    }
    const scopes = typeof claims['scope'] === 'string' ? claims['scope'].split(' ') : [];
    if (!scopes.includes(requiredScope)) return { ok: false, status: 403, reason: 'insufficient scope' };
    return { ok: true, claims };
  };
}
