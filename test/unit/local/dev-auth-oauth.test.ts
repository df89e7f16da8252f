/**
 * The local dev issuer as an OAuth 2.1 authorization server, part 1: RFC 8414 metadata, RFC 7591
 * registration and its refusals, `/authorize` with PKCE S256 and its refusals. Tokens: dev-auth-token.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OAuthMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { RegisteredClient } from '../../../local/dev-auth/index.js';
import {
  ISSUER,
  REDIRECT,
  STATE,
  devIssuer,
  register,
  registeredClient,
  pkcePair,
  authorizeRequest,
  redirectQuery,
  assertOAuthError,
} from './dev-auth-harness.js';

describe('dev issuer metadata', () => {
  it('publishes complete RFC 8414 metadata that the official SDK accepts', async () => {
    const { auth } = await devIssuer();

    const response = await auth.handle(new Request(`${ISSUER}/.well-known/oauth-authorization-server`));
    const metadata = (await response.json()) as Record<string, unknown>;

    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(metadata, {
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      registration_endpoint: `${ISSUER}/register`,
      jwks_uri: `${ISSUER}/.well-known/jwks.json`,
      scopes_supported: ['bos.read'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    assert.deepEqual(auth.metadata, metadata);
    assert.equal(OAuthMetadataSchema.safeParse(metadata).success, true);
  });

  it('does not pose as an OpenID provider, and answers CORS preflights on the token endpoint', async () => {
    const { auth } = await devIssuer();

    const oidc = await auth.handle(new Request(`${ISSUER}/.well-known/openid-configuration`));
    const preflight = await auth.handle(new Request(`${ISSUER}/token`, { method: 'OPTIONS' }));
    const wrongMethod = await auth.handle(new Request(`${ISSUER}/token`));

    assert.equal(oidc.status, 404);
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.equal(wrongMethod.status, 405);
  });
});

describe('dev issuer client registration', () => {
  it('registers a public client and answers 201 with its metadata and no secret', async () => {
    const { auth } = await devIssuer();

    const response = await register(auth, {
      redirect_uris: [REDIRECT, 'https://app.example/cb?x=1'],
      client_name: 'unit',
      scope: 'bos.read',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    const client = (await response.json()) as RegisteredClient & { client_secret?: string };

    assert.equal(response.status, 201);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.match(client.client_id, /^dev-client-[A-Za-z0-9_-]{16}$/);
    assert.equal(client.client_secret, undefined);
    assert.deepEqual(client.redirect_uris, [REDIRECT, 'https://app.example/cb?x=1']);
    assert.equal(client.token_endpoint_auth_method, 'none');
    assert.deepEqual(client.grant_types, ['authorization_code', 'refresh_token']);
    assert.equal(client.client_name, 'unit');
  });

  it('makes a client that names no auth method a public one', async () => {
    const { auth } = await devIssuer();
    const client = (await (await register(auth, { redirect_uris: [REDIRECT] })).json()) as RegisteredClient;
    assert.equal(client.token_endpoint_auth_method, 'none');
    assert.deepEqual(client.response_types, ['code']);
  });

  const refusals: Array<{ name: string; body: unknown; error: string; contentType?: string }> = [
    { name: 'no redirect_uris', body: { client_name: 'x' }, error: 'invalid_redirect_uri' },
    { name: 'an empty redirect_uris', body: { redirect_uris: [] }, error: 'invalid_redirect_uri' },
    {
      name: 'a relative redirect URI',
      body: { redirect_uris: ['/callback'] },
      error: 'invalid_redirect_uri',
    },
    {
      name: 'a javascript: URI',
      body: { redirect_uris: ['javascript:alert(1)'] },
      error: 'invalid_redirect_uri',
    },
    { name: 'a custom scheme', body: { redirect_uris: ['myapp://callback'] }, error: 'invalid_redirect_uri' },
    { name: 'a fragment', body: { redirect_uris: [`${REDIRECT}#frag`] }, error: 'invalid_redirect_uri' },
    { name: 'a non-string URI', body: { redirect_uris: [42] }, error: 'invalid_redirect_uri' },
    {
      name: 'a confidential auth method',
      body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' },
      error: 'invalid_client_metadata',
    },
    {
      name: 'the client_credentials grant',
      body: { redirect_uris: [REDIRECT], grant_types: ['client_credentials'] },
      error: 'invalid_client_metadata',
    },
    {
      name: 'the implicit response type',
      body: { redirect_uris: [REDIRECT], response_types: ['token'] },
      error: 'invalid_client_metadata',
    },
    {
      name: 'an unknown scope',
      body: { redirect_uris: [REDIRECT], scope: 'bos.write' },
      error: 'invalid_client_metadata',
    },
    { name: 'a JSON array body', body: [REDIRECT], error: 'invalid_client_metadata' },
    { name: 'a body that is not JSON', body: '{"redirect_uris":', error: 'invalid_client_metadata' },
    {
      name: 'a form body',
      body: 'redirect_uris=x',
      error: 'invalid_client_metadata',
      contentType: 'application/x-www-form-urlencoded',
    },
  ];
  for (const refusal of refusals) {
    it(`refuses a registration with ${refusal.name}`, async () => {
      const { auth } = await devIssuer();
      await assertOAuthError(await register(auth, refusal.body, refusal.contentType), refusal.error);
    });
  }

  it('keeps a bounded number of clients, forgetting the oldest', async () => {
    const { auth } = await devIssuer({ maxClients: 2 });
    const first = await registeredClient(auth);
    const second = await registeredClient(auth);
    await registeredClient(auth);
    const { challenge } = pkcePair();

    const forgotten = await auth.handle(authorizeRequest(first, challenge));
    const kept = await auth.handle(authorizeRequest(second, challenge));

    assert.equal(forgotten.status, 400);
    assert.equal(kept.status, 302);
  });
});

describe('dev issuer authorization endpoint', () => {
  it('auto-approves dev-user and redirects with a code, the state and the issuer', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const { challenge } = pkcePair();

    const response = await auth.handle(authorizeRequest(clientId, challenge));
    const query = redirectQuery(response);

    assert.match(query.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(query.get('state'), STATE);
    assert.equal(query.get('iss'), ISSUER);
    assert.equal(query.get('error'), null);
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });

  const pages: Array<{
    name: string;
    /** A client_id to send instead of a freshly registered one. */
    clientId?: string;
    overrides: Record<string, string | undefined>;
  }> = [
    { name: 'no client_id', overrides: { client_id: undefined } },
    { name: 'an unregistered client_id', clientId: 'dev-client-unknown', overrides: {} },
    { name: 'no redirect_uri', overrides: { redirect_uri: undefined } },
    {
      name: 'an unregistered redirect_uri',
      overrides: { redirect_uri: 'http://127.0.0.1:7777/other' },
    },
    {
      name: 'a redirect_uri differing by a trailing slash',
      overrides: { redirect_uri: `${REDIRECT}/` },
    },
  ];
  for (const page of pages) {
    it(`answers a 400 page, never a redirect, for ${page.name}`, async () => {
      const { auth } = await devIssuer();
      const clientId = page.clientId ?? (await registeredClient(auth));

      const response = await auth.handle(authorizeRequest(clientId, pkcePair().challenge, page.overrides));

      assert.equal(response.status, 400);
      assert.equal(response.headers.get('location'), null);
      assert.match(await response.text(), /^Authorization request refused/);
    });
  }

  const redirected: Array<{ name: string; overrides: Record<string, string | undefined>; error: string }> = [
    { name: 'no code_challenge', overrides: { code_challenge: undefined }, error: 'invalid_request' },
    { name: 'the plain method', overrides: { code_challenge_method: 'plain' }, error: 'invalid_request' },
    {
      name: 'no code_challenge_method',
      overrides: { code_challenge_method: undefined },
      error: 'invalid_request',
    },
    { name: 'a malformed code_challenge', overrides: { code_challenge: 'short' }, error: 'invalid_request' },
    { name: 'no response_type', overrides: { response_type: undefined }, error: 'invalid_request' },
    {
      name: 'response_type=token',
      overrides: { response_type: 'token' },
      error: 'unsupported_response_type',
    },
    {
      name: 'another resource',
      overrides: { resource: 'https://other.example/mcp' },
      error: 'invalid_target',
    },
    { name: 'an unknown scope', overrides: { scope: 'bos.read bos.write' }, error: 'invalid_scope' },
    { name: 'an unknown login_hint', overrides: { login_hint: 'mallory' }, error: 'access_denied' },
  ];
  for (const refusal of redirected) {
    it(`redirects with error=${refusal.error} and the state for ${refusal.name}`, async () => {
      const { auth } = await devIssuer();
      const clientId = await registeredClient(auth);

      const query = redirectQuery(
        await auth.handle(authorizeRequest(clientId, pkcePair().challenge, refusal.overrides)),
      );

      assert.equal(query.get('error'), refusal.error);
      assert.equal(query.get('state'), STATE);
      assert.equal(query.get('code'), null);
    });
  }

  it('redirects with invalid_request when a parameter is repeated', async () => {
    const { auth } = await devIssuer();
    const clientId = await registeredClient(auth);
    const request = authorizeRequest(clientId, pkcePair().challenge);
    const url = new URL(request.url);
    url.searchParams.append('code_challenge_method', 'plain');

    const query = redirectQuery(await auth.handle(new Request(url)));

    assert.equal(query.get('error'), 'invalid_request');
  });
});
