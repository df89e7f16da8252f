/**
 * The bad-token table (issue 7 "Must show"): each refusal through `authenticate()` and through the
 * platform entry, with exact status, `WWW-Authenticate` and body, against a real JWKS served on
 * 127.0.0.1 and real signed tokens. No token ever appears in a response or a log line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import { createBosPlatform, createDemoDirectory } from '../../../lambda/bos/index.js';
import { authenticate, createJwtVerifier } from '../../../lambda/bos/principals/index.js';
import type { TokenVerifier } from '../../../lambda/bos/principals/index.js';
import type { Logger } from '../../../lambda/mcp/index.js';
import { startJwksServer } from './principals-jwks-server.js';
import type { JwksServer } from './principals-jwks-server.js';

const ENDPOINT = 'https://bos.example.test/mcp/apps/bos/platform';
const ISSUER = 'https://issuer.example.test';
const METADATA = 'https://bos.example.test/.well-known/oauth-protected-resource/mcp/apps/bos/platform';
const CHALLENGE = `Bearer resource_metadata="${METADATA}"`;
const INVALID = `Bearer error="invalid_token", resource_metadata="${METADATA}"`;
const FORBIDDEN = `Bearer error="insufficient_scope", scope="bos.read", resource_metadata="${METADATA}"`;

interface Claims {
  iss?: string;
  aud?: string;
  sub?: string;
  scope?: string;
  exp?: number;
  nbf?: number;
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = (): number => Math.floor(Date.now() / 1000);

function claims(overrides: Claims = {}): Claims {
  return { iss: ISSUER, aud: ENDPOINT, sub: 'dev-user', scope: 'bos.read', exp: now() + 600, ...overrides };
}

async function sign(key: CryptoKey | Uint8Array, alg: string, kid: string, body: Claims): Promise<string> {
  return new SignJWT({ ...body }).setProtectedHeader({ alg, kid, typ: 'at+jwt' }).sign(key);
}

let jwks: JwksServer;
let es: { privateKey: CryptoKey; jwk: JWK };
let rs: { privateKey: CryptoKey; jwk: JWK; spki: string };
let stranger: CryptoKey;

before(async () => {
  const ec = await generateKeyPair('ES256', { extractable: true });
  const rsa = await generateKeyPair('RS256', { extractable: true });
  es = { privateKey: ec.privateKey, jwk: { ...(await exportJWK(ec.publicKey)), kid: 'es-1', alg: 'ES256' } };
  rs = {
    privateKey: rsa.privateKey,
    jwk: { ...(await exportJWK(rsa.publicKey)), kid: 'rs-1', alg: 'RS256' },
    spki: await exportSPKI(rsa.publicKey),
  };
  stranger = (await generateKeyPair('ES256')).privateKey;
  jwks = await startJwksServer([es.jwk, rs.jwk]);
});

after(async () => {
  await jwks.close();
});

function remoteVerifier(remote: { cooldownMs?: number; timeoutMs?: number } = {}): TokenVerifier {
  return createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: jwks.url, remote });
}

function post(authorization?: string): Request {
  return new Request(ENDPOINT, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}

interface Row {
  name: string;
  authorization: () => Promise<string | undefined>;
  status: number;
  challenge: string;
  code: number;
  reason: string;
  message: string;
}

const bearer = async (token: Promise<string>): Promise<string> => `Bearer ${await token}`;

const ROWS: Row[] = [
  {
    name: 'a missing Authorization header',
    authorization: () => Promise.resolve(undefined),
    status: 401,
    challenge: CHALLENGE,
    code: -32011,
    reason: 'missing_token',
    message: 'Authentication required: send a bearer token.',
  },
  {
    name: 'a malformed token',
    authorization: () => Promise.resolve('Bearer not-a.jwt'),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token is invalid.',
  },
  {
    name: 'a bad signature (right kid, another key)',
    authorization: () => bearer(sign(stranger, 'ES256', 'es-1', claims())),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token signature is invalid.',
  },
  {
    name: 'a wrong issuer',
    authorization: () => bearer(sign(es.privateKey, 'ES256', 'es-1', claims({ iss: 'https://evil.test' }))),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token was issued by another issuer.',
  },
  {
    name: 'a wrong audience',
    authorization: () =>
      bearer(sign(es.privateKey, 'ES256', 'es-1', claims({ aud: 'https://other.example.test/mcp' }))),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token was not issued for this resource.',
  },
  {
    name: 'an expired token (beyond the 60 s skew)',
    authorization: () => bearer(sign(rs.privateKey, 'RS256', 'rs-1', claims({ exp: now() - 90 }))),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token has expired.',
  },
  {
    name: 'a token not yet valid (beyond the 60 s skew)',
    authorization: () => bearer(sign(es.privateKey, 'ES256', 'es-1', claims({ nbf: now() + 120 }))),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token is not yet valid.',
  },
  {
    name: 'a valid token without bos.read',
    authorization: () => bearer(sign(es.privateKey, 'ES256', 'es-1', claims({ scope: 'openid profile' }))),
    status: 403,
    challenge: FORBIDDEN,
    code: -32013,
    reason: 'insufficient_scope',
    message: 'The token lacks the bos.read scope.',
  },
  {
    name: 'an unsecured token (alg: none)',
    authorization: () =>
      Promise.resolve(`Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims())}.`),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token signing algorithm is not accepted.',
  },
  {
    name: 'HS256 signed with the RSA public key (algorithm confusion)',
    authorization: () => bearer(sign(new TextEncoder().encode(rs.spki), 'HS256', 'rs-1', claims())),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token signing algorithm is not accepted.',
  },
  {
    name: 'an unknown kid',
    authorization: () => bearer(sign(stranger, 'ES256', 'nobody', claims())),
    status: 401,
    challenge: INVALID,
    code: -32011,
    reason: 'invalid_token',
    message: 'The token was signed with an unknown key.',
  },
];

/** A logger that keeps every line exactly as the JSON logger would write it. */
function recordingLogger(lines: string[]): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, message, ...fields }));
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

async function assertRefusal(response: Response, row: Row, secret: string | undefined): Promise<void> {
  assert.equal(response.status, row.status);
  assert.equal(response.headers.get('www-authenticate'), row.challenge);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const text = await response.text();
  assert.deepEqual(JSON.parse(text), {
    jsonrpc: '2.0',
    id: null,
    error: { code: row.code, message: row.message, data: { reason: row.reason } },
  });
  if (secret !== undefined) assertNoSecret(text, secret);
}

/** Neither the whole token nor any of its signature or payload segments may appear. */
function assertNoSecret(text: string, token: string): void {
  for (const part of [token, ...token.split('.').filter((p) => p.length >= 8)]) {
    assert.ok(!text.includes(part), `leaked a token part into: ${text.slice(0, 120)}`);
  }
}

describe('bad-token table through authenticate() with a remote JWKS', () => {
  for (const row of ROWS) {
    it(`refuses ${row.name} with ${row.status} and a fixed reason`, async () => {
      const authorization = await row.authorization();
      const token = authorization?.replace(/^Bearer /, '');
      const outcome = await authenticate(post(authorization), remoteVerifier(), { metadataUrl: METADATA });
      assert.equal(outcome.ok, false);
      if (outcome.ok) return;
      assert.equal(outcome.error.code, row.reason);
      if (token !== undefined) assertNoSecret(`${outcome.error.name} ${outcome.error.message}`, token);
      await assertRefusal(outcome.response, row, token);
    });
  }

  it('admits valid ES256 and RS256 tokens, within the 60 s skew on exp and nbf', async () => {
    const verifier = remoteVerifier();
    const tokens = [
      await sign(es.privateKey, 'ES256', 'es-1', claims()),
      await sign(rs.privateKey, 'RS256', 'rs-1', claims({ exp: now() - 30 })),
      await sign(es.privateKey, 'ES256', 'es-1', claims({ nbf: now() + 30 })),
    ];
    for (const token of tokens) {
      const outcome = await authenticate(post(`Bearer ${token}`), verifier, { metadataUrl: METADATA });
      assert.deepEqual(outcome, { ok: true, principal: { subject: 'dev-user', scopes: ['bos.read'] } });
    }
  });
});

describe('bad-token table through the platform entry', () => {
  it('answers every row identically and writes no token into any log line', async () => {
    const lines: string[] = [];
    const platform = createBosPlatform({
      directory: createDemoDirectory(),
      sources: new Map(),
      verifier: remoteVerifier(),
      endpoint: ENDPOINT,
      logger: recordingLogger(lines),
      serverOptions: { name: 'bos-test', version: '0.0.0' },
    });
    const tokens: string[] = [];
    for (const row of ROWS) {
      const authorization = await row.authorization();
      const token = authorization?.replace(/^Bearer /, '');
      if (token !== undefined) tokens.push(token);
      await assertRefusal(await platform.handle(post(authorization)), row, token);
    }
    // The refusals are logged (so the check below inspects real lines), without the token.
    assert.equal(lines.filter((l) => l.includes('bos.auth.refused')).length, ROWS.length);
    for (const line of lines) for (const token of tokens) assertNoSecret(line, token);
  });
});

describe('remote JWKS fetching', () => {
  it('re-fetches the key set when a token names a kid it has not seen, and then admits it', async () => {
    const verifier = remoteVerifier({ cooldownMs: 0 });
    await verifier.verify(await sign(es.privateKey, 'ES256', 'es-1', claims()));
    const rotated = await generateKeyPair('ES256', { extractable: true });
    const rotatedJwk = { ...(await exportJWK(rotated.publicKey)), kid: 'es-2', alg: 'ES256' };
    const before = jwks.fetches;
    jwks.keys = [es.jwk, rs.jwk, rotatedJwk];
    try {
      const principal = await verifier.verify(await sign(rotated.privateKey, 'ES256', 'es-2', claims()));
      assert.equal(principal.subject, 'dev-user');
      assert.equal(jwks.fetches, before + 1);
    } finally {
      jwks.keys = [es.jwk, rs.jwk];
    }
  });

  it('does not re-fetch for unknown kids during the cooldown after a fetch', async () => {
    const verifier = remoteVerifier({ cooldownMs: 60_000 });
    await verifier.verify(await sign(es.privateKey, 'ES256', 'es-1', claims()));
    const before = jwks.fetches;
    for (const kid of ['x1', 'x2', 'x3', 'x4']) {
      await assert.rejects(verifier.verify(await sign(stranger, 'ES256', kid, claims())), {
        code: 'invalid_token',
      });
    }
    assert.equal(jwks.fetches, before);
  });

  it('answers 503 without a challenge when the JWKS fetch times out', async () => {
    jwks.hang = true;
    try {
      const token = await sign(es.privateKey, 'ES256', 'es-1', claims());
      const outcome = await authenticate(post(`Bearer ${token}`), remoteVerifier({ timeoutMs: 200 }), {
        metadataUrl: METADATA,
      });
      assert.equal(outcome.ok, false);
      if (outcome.ok) return;
      assert.equal(outcome.response.status, 503);
      assert.equal(outcome.response.headers.get('www-authenticate'), null);
      assert.equal(outcome.response.headers.get('retry-after'), '1');
      assert.deepEqual(await outcome.response.json(), {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32014,
          message: 'The token could not be checked now; try again.',
          data: { reason: 'verifier_unavailable' },
        },
      });
    } finally {
      jwks.hang = false;
    }
  });

  it('answers 503 when nothing listens at the JWKS URL', async () => {
    const closed = await startJwksServer([]);
    const url = closed.url;
    await closed.close();
    const verifier = createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: url });
    const token = await sign(es.privateKey, 'ES256', 'es-1', claims());
    await assert.rejects(verifier.verify(token), { name: 'AuthError', code: 'verifier_unavailable' });
  });
});

describe('verifier configuration', () => {
  it('refuses to be built with an algorithm outside RS256/ES256', () => {
    for (const algorithms of [['HS256'], ['none'], ['RS256', 'PS256'], []]) {
      assert.throws(
        () => createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: { keys: [] }, algorithms }),
        { name: 'BosConfigError' },
      );
    }
  });
});
