/**
 * Authorization codes and refresh tokens of the dev issuer, in memory and bounded. A code is single use
 * and short-lived; redeeming it starts a *grant*, and every refresh token of that grant is revoked if the
 * code is presented again (RFC 6749 §4.1.2) or a rotated-out refresh token comes back (OAuth 2.1 §4.3.1:
 * reuse means one of the two holders is an attacker, and the server cannot tell which).
 */
import { randomBytes } from 'node:crypto';
import { BoundedMap } from './bounded-map.js';

/** What an authorization code was issued for; the token request must match it. */
export interface CodeGrant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  /** RFC 8707 `resource` of the authorization request, when one was sent. */
  resource?: string;
  subject: string;
  scope: string;
}

/** What a refresh token stands for. */
export interface RefreshGrant {
  grantId: string;
  clientId: string;
  subject: string;
  scope: string;
}

/** The outcome of presenting a code or refresh token. */
export type Redemption<T> =
  | { kind: 'valid'; grant: T }
  /** Presented before: the grant it started has just been revoked. */
  | { kind: 'reused' }
  /** Never issued, expired, or forgotten. */
  | { kind: 'unknown' };

/** Options of {@link GrantStore}. */
export interface GrantStoreOptions {
  clock: () => number;
  codeTtlMs: number;
  refreshTtlMs: number;
  /** Most live entries of each kind (codes, refresh tokens, spent ones remembered). */
  limit: number;
}

interface Expiring<T> {
  value: T;
  expiresAt: number;
}

/** Codes and refresh tokens, each usable once. */
export class GrantStore {
  readonly #options: GrantStoreOptions;
  readonly #codes: BoundedMap<string, Expiring<CodeGrant>>;
  /** Redeemed codes → the grant they started, to revoke it on reuse. */
  readonly #spentCodes: BoundedMap<string, string>;
  readonly #refresh: BoundedMap<string, Expiring<RefreshGrant>>;
  /** Rotated-out refresh tokens → their grant. */
  readonly #spentRefresh: BoundedMap<string, string>;

  constructor(options: GrantStoreOptions) {
    this.#options = options;
    this.#codes = new BoundedMap(options.limit);
    this.#spentCodes = new BoundedMap(options.limit);
    this.#refresh = new BoundedMap(options.limit);
    this.#spentRefresh = new BoundedMap(options.limit);
  }

  /** A new code for `grant`, valid for `codeTtlMs`. */
  issueCode(grant: CodeGrant): string {
    const code = opaque();
    this.#codes.set(code, { value: grant, expiresAt: this.#options.clock() + this.#options.codeTtlMs });
    return code;
  }

  /**
   * Spends a code, whatever the rest of the token request holds: a code gets exactly one try. Returns the
   * new grant id with the code's grant.
   */
  redeemCode(code: string): Redemption<CodeGrant & { grantId: string }> {
    const entry = this.#codes.take(code);
    if (entry === undefined) {
      const grantId = this.#spentCodes.take(code);
      if (grantId === undefined) return { kind: 'unknown' };
      this.#revoke(grantId);
      return { kind: 'reused' };
    }
    const grantId = opaque();
    this.#spentCodes.set(code, grantId);
    if (entry.expiresAt <= this.#options.clock()) return { kind: 'unknown' };
    return { kind: 'valid', grant: { ...entry.value, grantId } };
  }

  /** A new refresh token for `grant`, valid for `refreshTtlMs`. */
  issueRefreshToken(grant: RefreshGrant): string {
    const token = opaque();
    this.#refresh.set(token, { value: grant, expiresAt: this.#options.clock() + this.#options.refreshTtlMs });
    return token;
  }

  /**
   * Rotates a refresh token: the presented one is spent and the caller issues the next. A token held by
   * another client is refused and left alone, so a stranger cannot revoke someone else's grant.
   */
  rotateRefreshToken(token: string, clientId: string): Redemption<RefreshGrant> {
    const entry = this.#refresh.get(token);
    if (entry === undefined) {
      const grantId = this.#spentRefresh.take(token);
      if (grantId === undefined) return { kind: 'unknown' };
      this.#revoke(grantId);
      return { kind: 'reused' };
    }
    if (entry.value.clientId !== clientId) return { kind: 'unknown' };
    this.#refresh.take(token);
    if (entry.expiresAt <= this.#options.clock()) return { kind: 'unknown' };
    this.#spentRefresh.set(token, entry.value.grantId);
    return { kind: 'valid', grant: entry.value };
  }

  /** Revokes every live refresh token of a grant (access tokens are JWTs and live until `exp`). */
  #revoke(grantId: string): void {
    this.#refresh.deleteWhere((entry) => entry.value.grantId === grantId);
  }
}

/** 256 random bits, URL-safe: codes and refresh tokens are bearer secrets. */
function opaque(): string {
  return randomBytes(32).toString('base64url');
}
