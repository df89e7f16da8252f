/**
 * `TokenVerifier.prepare()` of the JWT verifier: the cold-start prefetch of a remote JWKS (started at init by
 * the platform entry). It may only move the key fetch earlier: every token is still verified, and a prefetch
 * that failed is repeated by the first verification. Against a real JWKS served on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createJwtVerifier } from '../../../lambda/bos/principals/index.js';
import { createTokenKeys, tokenFactory } from '../../helpers/bad-token-table.js';
import type { TokenKeys } from '../../helpers/bad-token-table.js';
import { startJwksServer } from '../../helpers/jwks-server.js';
import type { JwksServer } from '../../helpers/jwks-server.js';
import { boundedKeySetFetch } from '../../../lambda/handlers/key-set-fetch.js';

const ISSUER = 'https://issuer.example.test';
const AUDIENCE = 'https://bos.example.test/mcp/apps/bos/platform';
const { claims, sign } = tokenFactory(ISSUER, AUDIENCE);

let keys: TokenKeys;
let jwks: JwksServer;

before(async () => {
  keys = await createTokenKeys();
  jwks = await startJwksServer([keys.es.jwk]);
});

after(async () => {
  await jwks.close();
});

function remoteVerifier(timeoutMs = 2_000) {
  return createJwtVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    jwks: jwks.url,
    fetchKeySet: boundedKeySetFetch(),
    remote: { timeoutMs },
  });
}

const validToken = () => sign(keys.es.privateKey, 'ES256', 'es-1', claims());

describe('JWT verifier prefetch (prepare)', { timeout: 30_000 }, () => {
  it('fetches the key set once, and the first verification then needs no fetch of its own', async () => {
    // Prepare
    const verifier = remoteVerifier();
    const before = jwks.fetches;
    // Act
    await verifier.prepare?.();
    const afterPrepare = jwks.fetches;
    const principal = await verifier.verify(await validToken());
    // Assess
    assert.equal(afterPrepare - before, 1);
    assert.equal(jwks.fetches, afterPrepare);
    assert.equal(principal.subject, 'dev-user');
  });

  it('shares its fetch with a verification that starts while it is still in flight', async () => {
    // Prepare
    const verifier = remoteVerifier();
    const token = await validToken();
    const before = jwks.fetches;
    // Act
    const prefetch = verifier.prepare?.();
    const principal = await verifier.verify(token);
    await prefetch;
    // Assess
    assert.equal(jwks.fetches - before, 1);
    assert.equal(principal.subject, 'dev-user');
  });

  it('still refuses a bad token after a successful prefetch', async () => {
    // Prepare
    const verifier = remoteVerifier();
    await verifier.prepare?.();
    const expired = await sign(keys.es.privateKey, 'ES256', 'es-1', claims({ exp: 1 }));
    // Act + Assess
    await assert.rejects(verifier.verify(expired), { name: 'AuthError', code: 'invalid_token' });
  });

  it('leaves the first verification to fetch again when the prefetch failed', async () => {
    // Prepare: the issuer hangs, so the prefetch times out.
    const verifier = remoteVerifier(200);
    jwks.hang = true;
    const before = jwks.fetches;
    try {
      // Act
      await assert.rejects(verifier.prepare?.() ?? Promise.resolve(), { name: 'JWKSTimeout' });
    } finally {
      jwks.hang = false;
    }
    const principal = await verifier.verify(await validToken());
    // Assess
    assert.equal(jwks.fetches - before, 2);
    assert.equal(principal.subject, 'dev-user');
  });

  it('lets a verification that arrives during a prefetch that then times out fetch on its own', async () => {
    // Prepare: the prefetch reaches an issuer that hangs, then the issuer recovers (as when a cold start's
    // own work starves its first fetch past the timeout).
    const verifier = remoteVerifier(300);
    const token = await validToken();
    const before = jwks.fetches;
    jwks.hang = true;
    const prefetch = (verifier.prepare?.() ?? Promise.resolve()).then(
      () => 'fetched',
      (error: unknown) => (error instanceof Error ? error.name : 'failed'),
    );
    try {
      await waitUntil(() => jwks.fetches > before);
    } finally {
      jwks.hang = false;
    }
    // Act
    const principal = await verifier.verify(token);
    // Assess
    assert.equal(await prefetch, 'JWKSTimeout');
    assert.equal(jwks.fetches - before, 2);
    assert.equal(principal.subject, 'dev-user');
  });

  it('answers verifier_unavailable after one fetch of its own when the issuer stays down', async () => {
    // Prepare
    const verifier = remoteVerifier(200);
    const token = await validToken();
    const before = jwks.fetches;
    jwks.hang = true;
    try {
      void verifier.prepare?.().catch(() => undefined);
      // Act + Assess: the prefetch's timeout, then the verification's own.
      await assert.rejects(verifier.verify(token), { name: 'AuthError', code: 'verifier_unavailable' });
      assert.equal(jwks.fetches - before, 2);
    } finally {
      jwks.hang = false;
    }
  });

  it('is absent for a static key set, which needs no fetch', () => {
    const verifier = createJwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [keys.es.jwk] } });
    assert.equal('prepare' in verifier, false);
  });
});

/** Polls `probe` every 5 ms until it holds (the test's timeout bounds the wait). */
async function waitUntil(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((resolve) => setTimeout(resolve, 5));
}
