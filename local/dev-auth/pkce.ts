/**
 * PKCE (RFC 7636) with the S256 method only, as OAuth 2.1 §4.1.1 and MCP authorization require of
 * clients that can do it (every MCP client can): `plain` would let whoever sees the authorization request
 * redeem the code.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The only `code_challenge_method` accepted. */
export const PKCE_METHOD = 'S256';

/** RFC 7636 §4.2: an S256 challenge is BASE64URL(SHA-256(verifier)) without padding, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636 §4.1: 43–128 characters of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"`. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Whether `value` has the shape of an S256 code challenge. */
export function isS256Challenge(value: string): boolean {
  return S256_CHALLENGE.test(value);
}

/** Whether `value` has the shape of a code verifier. */
export function isCodeVerifier(value: string): boolean {
  return VERIFIER.test(value);
}

/** The S256 challenge of a verifier (RFC 7636 §4.2). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 §4.6: the verifier's S256 challenge equals the stored one (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(s256Challenge(verifier));
  const stored = Buffer.from(challenge);
  return computed.length === stored.length && timingSafeEqual(computed, stored);
}
