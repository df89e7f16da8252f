/**
 * The local dev issuer as an OAuth 2.1 authorization server, part 2: `/token` with single-use,
 * short-lived codes bound to client, redirect URI and PKCE verifier, every refusal of RFC 6749 §5.2, and
 * refresh tokens rotated on every use. Access tokens are checked with the verifier the Lambda uses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJwtVerifier } from '../../../lambda/bos/principals/index.js';
import type { DevAuth, TokenResponse } from '../../../local/dev-auth/index.js';
import {
  ISSUER,
  ENDPOINT,
  REDIRECT,
  devIssuer,
  registeredClient,
  pkcePair,
  authorizationCode,
  tokenRequest,
  exchange,
  refresh,
  assertOAuthError,
  tokensOf,
} from './dev-auth-harness.js';

describe('dev issuer token endpoint', () => {
  it('exchanges a code and its PKCE verifier for a no-store bearer token the Lambda verifier accepts', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const { code, verifier } = await authorizationCode(auth, clientId);

    const response = await exchange(auth, clientId, code, verifier);
    const tokens = await tokensOf(response);

    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(tokens.expires_in, 12 * 60 * 60);
    assert.equal(tokens.scope, 'bos.read');
    assert.match(tokens.refresh_token ?? '', /^[A-Za-z0-9_-]{43}$/);
    const verifierOfLambda = createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks });
    assert.deepEqual(await verifierOfLambda.verify(tokens.access_token), {
      subject: 'dev-user',
      scopes: ['bos.read'],
    });
  });

  it('issues the token to outsider when the authorization request had login_hint=outsider', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const { code, verifier } = await authorizationCode(auth, clientId, { login_hint: 'outsider' });

    const tokens = await tokensOf(await exchange(auth, clientId, code, verifier));

    const verifierOfLambda = createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks });
    assert.equal((await verifierOfLambda.verify(tokens.access_token)).subject, 'outsider');
  });

  it('refuses a wrong code_verifier with invalid_grant', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const { code } = await authorizationCode(auth, clientId);
    await assertOAuthError(await exchange(auth, clientId, code, pkcePair().verifier), 'invalid_grant');
  });

  it('refuses a redirect_uri other than the one the code was issued for', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth, { redirect_uris: [REDIRECT, 'http://127.0.0.1:7777/b'] });
    const { code, verifier } = await authorizationCode(auth, clientId);

    const response = await tokenRequest(auth, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: 'http://127.0.0.1:7777/b',
    });

    await assertOAuthError(response, 'invalid_grant');
  });

  it('refuses a code presented by another registered client', async () => {
    const { auth } = await devIssuer();
    const owner = await registeredClient(auth);
    const thief = await registeredClient(auth);
    const { code, verifier } = await authorizationCode(auth, owner);
    await assertOAuthError(await exchange(auth, thief, code, verifier), 'invalid_grant');
  });

  it('refuses a code used twice and revokes the refresh token the first use issued', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const { code, verifier } = await authorizationCode(auth, clientId);
    const first = await tokensOf(await exchange(auth, clientId, code, verifier));

    const second = await exchange(auth, clientId, code, verifier);

    await assertOAuthError(second, 'invalid_grant');
    await assertOAuthError(await refresh(auth, clientId, first.refresh_token ?? ''), 'invalid_grant');
  });

  it('refuses a code after its 60 seconds', async () => {
    const issuer = await devIssuer();
    const clientId = await registeredClient(issuer.auth);
    const { code, verifier } = await authorizationCode(issuer.auth, clientId);

    issuer.advance(60_001);

    await assertOAuthError(await exchange(issuer.auth, clientId, code, verifier), 'invalid_grant');
  });

  it('refuses a resource other than the MCP endpoint with invalid_target', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const { code, verifier } = await authorizationCode(auth, clientId);

    const response = await tokenRequest(auth, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      resource: 'https://other.example/mcp',
    });

    await assertOAuthError(response, 'invalid_target');
  });

  const malformed: Array<{ name: string; params: Record<string, string>; error: string; status?: number }> = [
    { name: 'no grant_type', params: { client_id: 'CLIENT', code: 'x' }, error: 'invalid_request' },
    {
      name: 'the client_credentials grant',
      params: { grant_type: 'client_credentials', client_id: 'CLIENT' },
      error: 'unsupported_grant_type',
    },
    {
      name: 'the password grant',
      params: { grant_type: 'password', client_id: 'CLIENT', username: 'u', password: 'p' },
      error: 'unsupported_grant_type',
    },
    {
      name: 'an unregistered client_id',
      params: { grant_type: 'authorization_code', client_id: 'dev-client-nope', code: 'x' },
      error: 'invalid_client',
      status: 401,
    },
    {
      name: 'no client_id',
      params: { grant_type: 'authorization_code', code: 'x' },
      error: 'invalid_client',
      status: 401,
    },
    {
      name: 'a client_secret',
      params: { grant_type: 'authorization_code', client_id: 'CLIENT', client_secret: 's', code: 'x' },
      error: 'invalid_client',
      status: 401,
    },
    {
      name: 'no code_verifier',
      params: { grant_type: 'authorization_code', client_id: 'CLIENT', code: 'x', redirect_uri: REDIRECT },
      error: 'invalid_request',
    },
    {
      name: 'a code_verifier too short for RFC 7636',
      params: {
        grant_type: 'authorization_code',
        client_id: 'CLIENT',
        code: 'x',
        redirect_uri: REDIRECT,
        code_verifier: 'abc',
      },
      error: 'invalid_request',
    },
    {
      name: 'an unknown code',
      params: {
        grant_type: 'authorization_code',
        client_id: 'CLIENT',
        code: 'never-issued',
        redirect_uri: REDIRECT,
        code_verifier: 'v'.repeat(43),
      },
      error: 'invalid_grant',
    },
    {
      name: 'no refresh_token',
      params: { grant_type: 'refresh_token', client_id: 'CLIENT' },
      error: 'invalid_request',
    },
  ];
  for (const row of malformed) {
    it(`refuses a token request with ${row.name} (${row.error})`, async () => {
      const { auth } = await devIssuer();
      const clientId = await registeredClient(auth);
      const params = Object.fromEntries(
        Object.entries(row.params).map(([name, value]) => [name, value === 'CLIENT' ? clientId : value]),
      );
      await assertOAuthError(await tokenRequest(auth, params), row.error, row.status);
    });
  }

  it('refuses a JSON body and HTTP Basic client authentication', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);

    const asJson = await auth.handle(
      new Request(`${ISSUER}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'refresh_token', client_id: clientId, refresh_token: 'x' }),
      }),
    );
    const basic = await tokenRequest(
      auth,
      { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'x' },
      { authorization: `Basic ${Buffer.from(`${clientId}:secret`).toString('base64')}` },
    );

    await assertOAuthError(asJson, 'invalid_request');
    await assertOAuthError(basic, 'invalid_client', 401);
  });

  it('refuses the refresh grant to a client that registered only authorization_code, and issues it no refresh token', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth, { grant_types: ['authorization_code'] });
    const { code, verifier } = await authorizationCode(auth, clientId);

    const tokens = await tokensOf(await exchange(auth, clientId, code, verifier));

    assert.equal(tokens.refresh_token, undefined);
    await assertOAuthError(await refresh(auth, clientId, 'anything'), 'unauthorized_client');
  });
});

describe('dev issuer refresh tokens', () => {
  async function firstTokens(auth: DevAuth, clientId: string): Promise<TokenResponse> {
    const { code, verifier } = await authorizationCode(auth, clientId);
    return tokensOf(await exchange(auth, clientId, code, verifier));
  }

  it('rotates the refresh token on every use and issues a fresh valid access token', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const first = await firstTokens(auth, clientId);

    const response = await refresh(auth, clientId, first.refresh_token ?? '');
    const second = await tokensOf(response);

    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.scope, 'bos.read');
    const verifierOfLambda = createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks });
    assert.equal((await verifierOfLambda.verify(second.access_token)).subject, 'dev-user');
    const third = await tokensOf(await refresh(auth, clientId, second.refresh_token ?? ''));
    assert.notEqual(third.refresh_token, second.refresh_token);
  });

  it('refuses a rotated-out refresh token and then revokes its successor too', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const first = await firstTokens(auth, clientId);
    const second = await tokensOf(await refresh(auth, clientId, first.refresh_token ?? ''));

    const replay = await refresh(auth, clientId, first.refresh_token ?? '');

    await assertOAuthError(replay, 'invalid_grant');
    await assertOAuthError(await refresh(auth, clientId, second.refresh_token ?? ''), 'invalid_grant');
  });

  it('refuses a refresh token presented by another client and leaves it usable by its owner', async () => {
    const { auth } = await devIssuer();
    const owner = await registeredClient(auth);
    const other = await registeredClient(auth);
    const first = await firstTokens(auth, owner);

    await assertOAuthError(await refresh(auth, other, first.refresh_token ?? ''), 'invalid_grant');
    assert.equal((await refresh(auth, owner, first.refresh_token ?? '')).status, 200);
  });

  it('refuses an expired refresh token', async () => {
    const issuer = await devIssuer({ refreshTtlSeconds: 10 });
    const clientId = await registeredClient(issuer.auth);
    const first = await firstTokens(issuer.auth, clientId);

    issuer.advance(10_001);

    await assertOAuthError(await refresh(issuer.auth, clientId, first.refresh_token ?? ''), 'invalid_grant');
  });
});
