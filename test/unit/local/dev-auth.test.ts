import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createJwtVerifier } from '../../../lambda/bos/principals/index.js';
import { createDevAuth, startDevIssuer } from '../../../local/dev-auth/index.js';
import { boundedKeySetFetch } from '../../../lambda/handlers/key-set-fetch.js';

const ENDPOINT = 'http://127.0.0.1:3000/mcp/apps/bos/platform';

describe('dev auth', () => {
  it('mints 12-hour bos.read tokens for dev-user and outsider from the local issuer', async () => {
    const auth = await createDevAuth({ issuer: 'http://127.0.0.1:9/', audience: ENDPOINT });
    for (const subject of ['dev-user', 'outsider'] as const) {
      const claims = decodeJwt(auth.tokens[subject]);
      assert.equal(claims.sub, subject);
      assert.equal(claims.iss, 'http://127.0.0.1:9');
      assert.equal(claims.aud, ENDPOINT);
      assert.equal(claims.scope, 'bos.read');
      assert.equal((claims.exp ?? 0) - (claims.iat ?? 0), 12 * 60 * 60);
      assert.equal(decodeProtectedHeader(auth.tokens[subject]).alg, 'ES256');
    }
  });

  it('writes .local/dev-tokens.json with exactly the two demo tokens, readable only by the owner', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dev-auth-'));
    try {
      const auth = await createDevAuth({
        issuer: 'http://127.0.0.1:9',
        audience: ENDPOINT,
        algorithm: 'RS256',
      });
      const path = await auth.writeTokensFile(join(dir, '.local', 'dev-tokens.json'));
      const written = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
      assert.deepEqual(written, { 'dev-user': auth.tokens['dev-user'], outsider: auth.tokens.outsider });
      assert.equal((await stat(path)).mode & 0o777, 0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves its JWKS at the issuer URL so a verifier can fetch it like a deployed issuer', async () => {
    const issuer = await startDevIssuer({ audience: ENDPOINT });
    try {
      const verifier = createJwtVerifier({
        issuer: issuer.issuer,
        audience: ENDPOINT,
        jwks: new URL(issuer.jwksUrl),
        fetchKeySet: boundedKeySetFetch(),
      });
      assert.deepEqual(await verifier.verify(issuer.tokens['dev-user']), {
        subject: 'dev-user',
        scopes: ['bos.read'],
      });
      const missing = await issuer.handle(new Request(`${issuer.issuer}/nope`));
      assert.equal(missing.status, 404);
    } finally {
      await issuer.close();
    }
  });
});
