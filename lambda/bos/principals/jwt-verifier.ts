import { createLocalJWKSet, createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTPayload } from 'jose';
import type { Principal } from '../../mcp/index.js';
import { AuthError, BosConfigError } from '../errors.js';
import { BOS_READ_SCOPE } from './resource-metadata.js';
import { tokenFailure } from './token-failure.js';
import type { TokenVerifier } from './token-verifier.js';

/** The only signature algorithms accepted: asymmetric, so a public key can never act as an HMAC secret. */
export const ACCEPTED_ALGORITHMS = ['RS256', 'ES256'] as const;

/** Fetch and cache bounds of a remote JWKS (the `createRemoteJWKSet` options of jose). */
export interface RemoteJwksOptions {
  /** Abort one JWKS fetch after this long; the request then gets 503. @default 2000 */
  timeoutMs?: number;
  /**
   * After a successful fetch, an unknown `kid` triggers no new fetch for this long: a flood of tokens
   * with invented `kid`s cannot turn into a flood of requests to the issuer. @default 30000
   */
  cooldownMs?: number;
  /** Keys are re-fetched once older than this, even when every `kid` is known. @default 600000 */
  cacheMaxAgeMs?: number;
}

/**
 * The port a remote JWKS is fetched through (jose's `customFetch` signature): `fetch(url, init)` that
 * honours `init.signal` and `redirect: "manual"` and refuses a body larger than a key set can be, so an
 * issuer answering megabytes cannot fill the function's memory. The composition root supplies it.
 */
export type KeySetFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Where the keys come from: a static key set, or a URL and the bounded fetch that reads it. */
export type JwksSource =
  | { readonly jwks: JSONWebKeySet; readonly fetchKeySet?: undefined }
  | {
      /** `AUTH_JWKS_URL`: fetched on first use, cached, re-fetched as {@link RemoteJwksOptions} say. */
      readonly jwks: URL;
      readonly fetchKeySet: KeySetFetch;
    };

/** Options of {@link createJwtVerifier}. */
export type JwtVerifierOptions = JwksSource & JwtVerifierSettings;

/** What every verifier is told besides its keys. */
export interface JwtVerifierSettings {
  /** Expected `iss` (`AUTH_ISSUER`; RFC 9068 §4: the resource server checks the issuer). */
  issuer: string;
  /** Expected `aud`: this resource, `MCP_ENDPOINT` (MCP authorization; RFC 8707 §2). */
  audience: string;
  /** Bounds of the remote JWKS fetch and cache. */
  remote?: RemoteJwksOptions;
  /** Scope every caller must hold; its absence gives `insufficient_scope`. @default 'bos.read' */
  requiredScope?: string;
  /** Accepted algorithms, a subset of RS256/ES256 (`none` and HS* can never be enabled). @default both */
  algorithms?: readonly string[];
  /** Tolerated clock skew on `exp`/`nbf`, seconds. @default 60 */
  clockToleranceSeconds?: number;
  /** Current time for `exp`/`nbf` (fixture vectors with a pinned clock). @default Date.now */
  clock?: () => number;
  /**
   * Claim naming the caller's tenant (`Principal.tenant`, pooled by the per-tenant rate limit). A token
   * without it, or with anything but a non-empty string of at most 256 characters there, has no tenant.
   * @default 'org_id'
   */
  tenantClaim?: string;
}

/**
 * A `jose`-based {@link TokenVerifier}: signature against the JWKS with RS256/ES256 only, `iss`, `aud`,
 * `exp`/`nbf` with skew, a non-empty `sub`, then the required scope. Every failure becomes an
 * {@link AuthError} with a fixed reason, so no library text (which may quote claims) escapes.
 */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const algorithms = acceptedAlgorithms(options.algorithms);
  const keys =
    options.fetchKeySet === undefined
      ? createLocalJWKSet(options.jwks)
      : remoteKeySet(options.jwks, options.fetchKeySet, options.remote);
  const remote = 'reload' in keys ? keys : undefined;
  const clockTolerance = options.clockToleranceSeconds ?? 60;
  const requiredScope = options.requiredScope ?? BOS_READ_SCOPE;
  const tenantClaim = options.tenantClaim ?? 'org_id';

  // The cold-start prefetch while it is in flight, settled either way (see `verify`).
  let prefetching: Promise<void> | undefined;
  const prepare = (): Promise<void> => {
    if (remote === undefined || remote.fresh) return Promise.resolve();
    const fetching = remote.reload();
    const settled = fetching.then(
      () => undefined,
      () => undefined,
    );
    prefetching = settled;
    void settled.then(() => {
      if (prefetching === settled) prefetching = undefined;
    });
    return fetching;
  };

  return {
    issuer: options.issuer,
    requiredScope,
    ...(remote === undefined ? {} : { prepare }),
    async verify(token: string): Promise<Principal> {
      // A verification that finds the prefetch in flight waits for it rather than joining it: the prefetch
      // started during init, whose own work (loading the code, first use of `fetch`) can starve the event
      // loop past the fetch timeout even when the issuer answered at once. If it failed, jose forgot it and
      // the key lookup below fetches again with a full timeout of its own, so a cold start costs at most
      // one extra fetch, and an issuer that is really down still answers 503 after that one timeout.
      if (prefetching !== undefined) await prefetching;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms,
          clockTolerance,
          ...(options.clock === undefined ? {} : { currentDate: new Date(options.clock()) }),
          requiredClaims: ['iss', 'aud', 'exp', 'sub'],
        }));
      } catch (error) {
        throw tokenFailure(error);
      }
      const subject = payload.sub;
      if (typeof subject !== 'string' || subject === '') {
        throw new AuthError('invalid_token', 'The token has no subject.');
      }
      const scopes = scopesOf(payload);
      if (!scopes.includes(requiredScope)) {
        throw new AuthError('insufficient_scope', `The token lacks the ${requiredScope} scope.`);
      }
      const tenant = (payload as Record<string, unknown>)[tenantClaim];
      return typeof tenant === 'string' && tenant !== '' && tenant.length <= 256
        ? { subject, scopes, tenant }
        : { subject, scopes };
    },
  };
}

/** The issuer's keys at `url`: fetched on first use, cached, re-fetched as {@link RemoteJwksOptions} say. */
function remoteKeySet(url: URL, fetchKeySet: KeySetFetch, options: RemoteJwksOptions = {}) {
  return createRemoteJWKSet(url, {
    timeoutDuration: options.timeoutMs ?? 2_000,
    cooldownDuration: options.cooldownMs ?? 30_000,
    cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
    [customFetch]: fetchKeySet,
  });
}

/** The configured algorithms, refusing at construction anything outside RS256/ES256. */
function acceptedAlgorithms(configured: readonly string[] | undefined): string[] {
  const algorithms = [...(configured ?? ACCEPTED_ALGORITHMS)];
  const accepted: readonly string[] = ACCEPTED_ALGORITHMS;
  const refused = algorithms.filter((alg) => !accepted.includes(alg));
  if (algorithms.length === 0 || refused.length > 0) {
    throw new BosConfigError(`Token algorithms must be a non-empty subset of ${accepted.join(', ')}.`);
  }
  return algorithms;
}

/** Scopes from `scope` (RFC 9068 §2.2.3, space-separated) or, as some issuers send, an `scp` array. */
function scopesOf(payload: JWTPayload): string[] {
  const { scope, scp } = payload as { scope?: unknown; scp?: unknown };
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}
