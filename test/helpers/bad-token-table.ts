/**
 * The bad-token table, shared by the unit test (`authenticate()`, platform entry) and the local
 * stack test: real keys, real signed tokens, and the exact status, challenge and JSON-RPC body each gets.
 */
import assert from 'node:assert/strict';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK } from 'jose';

/** Claims of a test token; absent ones take the valid default. */
export interface Claims {
  iss?: string;
  aud?: string;
  sub?: string;
  scope?: string;
  exp?: number;
  nbf?: number;
}

/** One row: how to build the Authorization header, and the refusal it must get. */
export interface BadTokenRow {
  name: string;
  authorization: () => Promise<string | undefined>;
  status: number;
  challenge: string;
  code: number;
  reason: string;
  message: string;
}

/** The issuer's keys (published in its JWKS) and a key it never published. */
export interface TokenKeys {
  es: { privateKey: CryptoKey; jwk: JWK };
  rs: { privateKey: CryptoKey; jwk: JWK; spki: string };
  stranger: CryptoKey;
}

export async function createTokenKeys(): Promise<TokenKeys> {
  const ec = await generateKeyPair('ES256', { extractable: true });
  const rsa = await generateKeyPair('RS256', { extractable: true });
  return {
    es: { privateKey: ec.privateKey, jwk: { ...(await exportJWK(ec.publicKey)), kid: 'es-1', alg: 'ES256' } },
    rs: {
      privateKey: rsa.privateKey,
      jwk: { ...(await exportJWK(rsa.publicKey)), kid: 'rs-1', alg: 'RS256' },
      spki: await exportSPKI(rsa.publicKey),
    },
    stranger: (await generateKeyPair('ES256')).privateKey,
  };
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Token factory for one issuer and audience. */
export function tokenFactory(issuer: string, audience: string) {
  const claims = (overrides: Claims = {}): Claims => ({
    iss: issuer,
    aud: audience,
    sub: 'dev-user',
    scope: 'bos.read',
    exp: nowSeconds() + 600,
    ...overrides,
  });
  const sign = (key: CryptoKey | Uint8Array, alg: string, kid: string, body: Claims): Promise<string> =>
    new SignJWT({ ...body }).setProtectedHeader({ alg, kid, typ: 'at+jwt' }).sign(key);
  return { claims, sign };
}

/** The eleven rows: missing, malformed, bad signature, iss, aud, exp, nbf, scope, none, HS256 confusion, kid. */
export function badTokenRows(
  keys: TokenKeys,
  options: { issuer: string; audience: string; metadataUrl: string },
): BadTokenRow[] {
  const { claims, sign } = tokenFactory(options.issuer, options.audience);
  const challenge = `Bearer resource_metadata="${options.metadataUrl}"`;
  const invalid = `Bearer error="invalid_token", resource_metadata="${options.metadataUrl}"`;
  const forbidden = `Bearer error="insufficient_scope", scope="bos.read", resource_metadata="${options.metadataUrl}"`;
  const bearer = async (token: Promise<string>): Promise<string> => `Bearer ${await token}`;
  const refused = (
    name: string,
    authorization: BadTokenRow['authorization'],
    message: string,
  ): BadTokenRow => ({
    name,
    authorization,
    status: 401,
    challenge: invalid,
    code: -32011,
    reason: 'invalid_token',
    message,
  });
  const { es, rs, stranger } = keys;
  return [
    {
      name: 'a missing Authorization header',
      authorization: () => Promise.resolve(undefined),
      status: 401,
      challenge,
      code: -32011,
      reason: 'missing_token',
      message: 'Authentication required: send a bearer token.',
    },
    refused('a malformed token', () => Promise.resolve('Bearer not-a.jwt'), 'The token is invalid.'),
    refused(
      'a bad signature (right kid, another key)',
      () => bearer(sign(stranger, 'ES256', 'es-1', claims())),
      'The token signature is invalid.',
    ),
    refused(
      'a wrong issuer',
      () => bearer(sign(es.privateKey, 'ES256', 'es-1', claims({ iss: 'https://evil.test' }))),
      'The token was issued by another issuer.',
    ),
    refused(
      'a wrong audience',
      () => bearer(sign(es.privateKey, 'ES256', 'es-1', claims({ aud: 'https://other.example.test/mcp' }))),
      'The token was not issued for this resource.',
    ),
    refused(
      'an expired token (beyond the 60 s skew)',
      () => bearer(sign(rs.privateKey, 'RS256', 'rs-1', claims({ exp: nowSeconds() - 90 }))),
      'The token has expired.',
    ),
    refused(
      'a token not yet valid (beyond the 60 s skew)',
      () => bearer(sign(es.privateKey, 'ES256', 'es-1', claims({ nbf: nowSeconds() + 120 }))),
      'The token is not yet valid.',
    ),
    {
      name: 'a valid token without bos.read',
      authorization: () => bearer(sign(es.privateKey, 'ES256', 'es-1', claims({ scope: 'openid profile' }))),
      status: 403,
      challenge: forbidden,
      code: -32013,
      reason: 'insufficient_scope',
      message: 'The token lacks the bos.read scope.',
    },
    refused(
      'an unsecured token (alg: none)',
      () => Promise.resolve(`Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims())}.`),
      'The token signing algorithm is not accepted.',
    ),
    refused(
      'HS256 signed with the RSA public key (algorithm confusion)',
      () => bearer(sign(new TextEncoder().encode(rs.spki), 'HS256', 'rs-1', claims())),
      'The token signing algorithm is not accepted.',
    ),
    refused(
      'an unknown kid',
      () => bearer(sign(stranger, 'ES256', 'nobody', claims())),
      'The token was signed with an unknown key.',
    ),
  ];
}

/** Status, challenge, `Cache-Control` and the exact JSON-RPC body; the token appears nowhere in it. */
export async function assertRefusal(
  response: Response,
  row: BadTokenRow,
  token: string | undefined,
): Promise<void> {
  assert.equal(response.status, row.status, row.name);
  assert.equal(response.headers.get('www-authenticate'), row.challenge, row.name);
  assert.equal(response.headers.get('cache-control'), 'no-store', row.name);
  const text = await response.text();
  assert.deepEqual(
    JSON.parse(text),
    {
      jsonrpc: '2.0',
      id: null,
      error: { code: row.code, message: row.message, data: { reason: row.reason } },
    },
    row.name,
  );
  if (token !== undefined) assertNoToken(text, token);
}

/** Neither the whole token nor any of its segments (8+ characters) may appear in `text`. */
export function assertNoToken(text: string, token: string): void {
  for (const part of [token, ...token.split('.').filter((p) => p.length >= 8)]) {
    assert.ok(!text.includes(part), `a token part leaked into: ${text.slice(0, 160)}`);
  }
}
