/**
 * The bad-token table: each refusal through `authenticate()` and through the
 * platform entry, with exact status, `WWW-Authenticate` and body, against a real JWKS served on
 * 127.0.0.1 and real signed tokens. No token ever appears in a response or a log line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair } from 'jose';
import { createBosPlatform, createDemoDirectory } from '../../../lambda/bos/index.js';
import { authenticate, createJwtVerifier } from '../../../lambda/bos/principals/index.js';
import type { TokenVerifier } from '../../../lambda/bos/principals/index.js';
import type { Logger } from '../../../lambda/mcp/index.js';
import {
  assertNoToken,
  assertRefusal,
  badTokenRows,
  createTokenKeys,
  nowSeconds,
  tokenFactory,
} from '../../helpers/bad-token-table.js';
import type { BadTokenRow, TokenKeys } from '../../helpers/bad-token-table.js';
import { startJwksServer } from '../../helpers/jwks-server.js';
import type { JwksServer } from '../../helpers/jwks-server.js';
import { boundedKeySetFetch } from '../../../lambda/handlers/key-set-fetch.js';

const ENDPOINT = 'https://bos.example.test/mcp/apps/bos/platform';
const ISSUER = 'https://issuer.example.test';
const METADATA = 'https://bos.example.test/.well-known/oauth-protected-resource/mcp/apps/bos/platform';
const { claims, sign } = tokenFactory(ISSUER, ENDPOINT);

// Made at load time: the rows must exist when `describe` enumerates them.
const keys: TokenKeys = await createTokenKeys();
const ROWS: BadTokenRow[] = badTokenRows(keys, { issuer: ISSUER, audience: ENDPOINT, metadataUrl: METADATA });
let jwks: JwksServer;

before(async () => {
  jwks = await startJwksServer([keys.es.jwk, keys.rs.jwk]);
});

after(async () => {
  await jwks.close();
});

function remoteVerifier(remote: { cooldownMs?: number; timeoutMs?: number } = {}): TokenVerifier {
  return createJwtVerifier({
    issuer: ISSUER,
    audience: ENDPOINT,
    jwks: jwks.url,
    fetchKeySet: boundedKeySetFetch(),
    remote,
  });
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

/** A logger that keeps every line exactly as the JSON logger would write it. */
function recordingLogger(lines: string[]): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, message, ...fields }));
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
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
      if (token !== undefined) assertNoToken(`${outcome.error.name} ${outcome.error.message}`, token);
      await assertRefusal(outcome.response, row, token);
    });
  }

  it('admits valid ES256 and RS256 tokens, within the 60 s skew on exp and nbf', async () => {
    const verifier = remoteVerifier();
    const tokens = [
      await sign(keys.es.privateKey, 'ES256', 'es-1', claims()),
      await sign(keys.rs.privateKey, 'RS256', 'rs-1', claims({ exp: nowSeconds() - 30 })),
      await sign(keys.es.privateKey, 'ES256', 'es-1', claims({ nbf: nowSeconds() + 30 })),
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
    assert.equal(ROWS.length, 11);
    for (const row of ROWS) {
      const authorization = await row.authorization();
      const token = authorization?.replace(/^Bearer /, '');
      if (token !== undefined) tokens.push(token);
      await assertRefusal(await platform.handle(post(authorization)), row, token);
    }
    // The refusals are logged (so the check below inspects real lines), without the token.
    assert.equal(lines.filter((l) => l.includes('bos.auth.refused')).length, ROWS.length);
    for (const line of lines) for (const token of tokens) assertNoToken(line, token);
  });
});

describe('remote JWKS fetching', () => {
  it('re-fetches the key set when a token names a kid it has not seen, and then admits it', async () => {
    const verifier = remoteVerifier({ cooldownMs: 0 });
    await verifier.verify(await sign(keys.es.privateKey, 'ES256', 'es-1', claims()));
    const rotated = await generateKeyPair('ES256', { extractable: true });
    const rotatedJwk = { ...(await exportJWK(rotated.publicKey)), kid: 'es-2', alg: 'ES256' };
    const before = jwks.fetches;
    jwks.keys = [keys.es.jwk, keys.rs.jwk, rotatedJwk];
    try {
      const principal = await verifier.verify(await sign(rotated.privateKey, 'ES256', 'es-2', claims()));
      assert.equal(principal.subject, 'dev-user');
      assert.equal(jwks.fetches, before + 1);
    } finally {
      jwks.keys = [keys.es.jwk, keys.rs.jwk];
    }
  });

  it('does not re-fetch for unknown kids during the cooldown after a fetch', async () => {
    const verifier = remoteVerifier({ cooldownMs: 60_000 });
    await verifier.verify(await sign(keys.es.privateKey, 'ES256', 'es-1', claims()));
    const before = jwks.fetches;
    for (const kid of ['x1', 'x2', 'x3', 'x4']) {
      await assert.rejects(verifier.verify(await sign(keys.stranger, 'ES256', kid, claims())), {
        code: 'invalid_token',
      });
    }
    assert.equal(jwks.fetches, before);
  });

  it('answers 503 without a challenge when the JWKS fetch times out', async () => {
    jwks.hang = true;
    try {
      const token = await sign(keys.es.privateKey, 'ES256', 'es-1', claims());
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
    const verifier = createJwtVerifier({
      issuer: ISSUER,
      audience: ENDPOINT,
      jwks: url,
      fetchKeySet: boundedKeySetFetch(),
    });
    const token = await sign(keys.es.privateKey, 'ES256', 'es-1', claims());
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
