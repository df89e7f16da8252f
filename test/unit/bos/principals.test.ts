import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createDevAuth } from '../../../local/dev-auth/index.js';
import {
  authenticate,
  createJwtVerifier,
  protectedResourceMetadata,
  resourceMetadataPaths,
  resourceMetadataUrl,
} from '../../../lambda/bos/principals/index.js';
import { AuthError } from '../../../lambda/bos/errors.js';

const ENDPOINT = 'https://mcp.example.com/mcp/apps/bos/platform';
const ISSUER = 'https://issuer.example.com';
const METADATA_URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp/apps/bos/platform';

async function setup() {
  const auth = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT });
  const verifier = createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks });
  return { auth, verifier };
}

function post(token?: string): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return new Request(ENDPOINT, { method: 'POST', headers, body: '{}' });
}

describe('resource metadata URL', () => {
  it('puts the well-known prefix between the configured origin and path', () => {
    assert.equal(resourceMetadataUrl(ENDPOINT), METADATA_URL);
    assert.equal(
      resourceMetadataUrl('http://127.0.0.1:3000/mcp/apps/bos/platform/'),
      'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp/apps/bos/platform',
    );
  });

  it('lists the path-scoped document before the root one', () => {
    assert.deepEqual(resourceMetadataPaths(ENDPOINT), [
      '/.well-known/oauth-protected-resource/mcp/apps/bos/platform',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  it('describes the resource with header bearer tokens and the bos.read scope', () => {
    assert.deepEqual(protectedResourceMetadata(ENDPOINT, [ISSUER]), {
      resource: ENDPOINT,
      authorization_servers: [ISSUER],
      scopes_supported: ['bos.read'],
      bearer_methods_supported: ['header'],
    });
  });

  it('rejects an endpoint that is not an absolute http(s) URL', () => {
    assert.throws(() => resourceMetadataUrl('/mcp'), { name: 'BosConfigError' });
  });
});

describe('JWT verifier', () => {
  it('returns the subject and scopes of a valid dev token', async () => {
    const { auth, verifier } = await setup();
    assert.deepEqual(await verifier.verify(auth.tokens['dev-user']), {
      subject: 'dev-user',
      scopes: ['bos.read'],
    });
  });

  it('reads the tenant from the configured claim, and gives a token without a usable one no tenant', async () => {
    const { auth } = await setup();
    const byDefault = createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks });
    const custom = createJwtVerifier({
      issuer: ISSUER,
      audience: ENDPOINT,
      jwks: auth.jwks,
      tenantClaim: 'tid',
    });
    const withOrg = await auth.mint('ada', { orgId: 'acme' });

    assert.deepEqual(await byDefault.verify(withOrg), {
      subject: 'ada',
      scopes: ['bos.read'],
      tenant: 'acme',
    });
    assert.deepEqual(await custom.verify(withOrg), { subject: 'ada', scopes: ['bos.read'] });
    assert.deepEqual(await byDefault.verify(await auth.mint('ada', { orgId: '' })), {
      subject: 'ada',
      scopes: ['bos.read'],
    });
    assert.deepEqual(await byDefault.verify(await auth.mint('ada', { orgId: 'x'.repeat(257) })), {
      subject: 'ada',
      scopes: ['bos.read'],
    });
  });

  it('refuses a token for another audience, an expired token and a foreign key as invalid_token', async () => {
    const { auth, verifier } = await setup();
    const otherAudience = await auth.mint('dev-user', { audience: 'https://other.example.com/mcp' });
    const expired = await auth.mint('dev-user', { ttlSeconds: -120 });
    const foreign = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT });
    for (const token of [otherAudience, expired, foreign.tokens['dev-user'], 'not-a-jwt']) {
      await assert.rejects(verifier.verify(token), (error: unknown) => {
        assert.ok(error instanceof AuthError);
        assert.equal(error.code, 'invalid_token');
        return true;
      });
    }
  });

  it('refuses an algorithm outside RS256/ES256 even when the key is in the JWKS', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES384');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k384', alg: 'ES384' };
    const verifier = createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: { keys: [jwk] } });
    const token = await new SignJWT({ scope: 'bos.read' })
      .setProtectedHeader({ alg: 'ES384', kid: 'k384' })
      .setIssuer(ISSUER)
      .setAudience(ENDPOINT)
      .setSubject('dev-user')
      .setExpirationTime('1h')
      .sign(privateKey);
    await assert.rejects(verifier.verify(token), { name: 'AuthError', code: 'invalid_token' });
  });

  it('refuses a token without the required scope as insufficient_scope', async () => {
    const auth = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT, algorithm: 'RS256' });
    const verifier = createJwtVerifier({
      issuer: ISSUER,
      audience: ENDPOINT,
      jwks: auth.jwks,
      requiredScope: 'bos.read',
    });
    const token = await auth.mint('dev-user', { scope: 'profile' });
    await assert.rejects(verifier.verify(token), { name: 'AuthError', code: 'insufficient_scope' });
  });
});

describe('authenticate', () => {
  it('answers a request without a token with 401, the metadata challenge and a JSON-RPC body', async () => {
    const { verifier } = await setup();
    const outcome = await authenticate(post(), verifier, { metadataUrl: METADATA_URL });
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.response.status, 401);
    assert.equal(
      outcome.response.headers.get('www-authenticate'),
      `Bearer resource_metadata="${METADATA_URL}"`,
    );
    const body = (await outcome.response.json()) as { id: unknown; error: { code: number; message: string } };
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32011);
    assert.match(body.error.message, /bearer token/);
  });

  it('adds error="invalid_token" when a bad token was sent, and never echoes the token', async () => {
    const { verifier } = await setup();
    const bad = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
    const outcome = await authenticate(post(bad), verifier, { metadataUrl: METADATA_URL });
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.response.status, 401);
    assert.equal(
      outcome.response.headers.get('www-authenticate'),
      `Bearer error="invalid_token", resource_metadata="${METADATA_URL}"`,
    );
    const text = await outcome.response.text();
    assert.ok(!text.includes(bad));
    assert.ok(!text.includes('c2ln'));
  });

  it('answers a valid token lacking bos.read with 403 insufficient_scope', async () => {
    const { auth, verifier } = await setup();
    const token = await auth.mint('dev-user', { scope: 'openid profile' });
    const outcome = await authenticate(post(token), verifier, { metadataUrl: METADATA_URL });
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.response.status, 403);
    assert.equal(
      outcome.response.headers.get('www-authenticate'),
      `Bearer error="insufficient_scope", scope="bos.read", resource_metadata="${METADATA_URL}"`,
    );
    const body = (await outcome.response.json()) as { error: { code: number; data: { reason: string } } };
    assert.equal(body.error.code, -32013);
    assert.equal(body.error.data.reason, 'insufficient_scope');
  });

  it('treats a non-Bearer scheme as no token', async () => {
    const { verifier } = await setup();
    const request = new Request(ENDPOINT, {
      method: 'POST',
      headers: { authorization: 'Basic dXNlcjpwdw==' },
    });
    const outcome = await authenticate(request, verifier, { metadataUrl: METADATA_URL });
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.equal(outcome.error.code, 'missing_token');
  });

  it('admits a valid dev token with its principal', async () => {
    const { auth, verifier } = await setup();
    const outcome = await authenticate(post(auth.tokens.outsider), verifier, { metadataUrl: METADATA_URL });
    assert.deepEqual(outcome, { ok: true, principal: { subject: 'outsider', scopes: ['bos.read'] } });
  });
});
