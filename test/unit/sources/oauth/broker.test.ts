/**
 * The client-credentials broker against a real authorization server (`oidc-provider` on loopback):
 * each client authentication method, replay and wrong-secret refusals, caching, one shared refresh, the
 * mapping of refusals and outages onto source error codes, and no secret in any error.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, exportJWK, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { isSourceError } from '../../../../lambda/federation/index.js';
import {
  ClientCredentialsBroker,
  fetchTokenTransport,
  parseClientCredentialsOptions,
} from '../../../../lambda/sources/oauth/index.js';
import type {
  BrokerOptions,
  ClientCredentialsOptions,
  TokenTransport,
} from '../../../../lambda/sources/oauth/index.js';
import { startAuthorizationServer } from '../../../../local/providers/oauth/authorization-server.js';
import type { AuthorizationServer } from '../../../../local/providers/oauth/authorization-server.js';
import { staticCredential } from '../../../helpers/oauth-vendors.js';

const RESOURCE = 'http://127.0.0.1:9/graph/';
const SECRET = 'basic-secret-0123456789-abcdefghijklmnop';
const POST_SECRET = 'post-secret-0123456789-abcdefghijklmnop';
let server: AuthorizationServer;
let privatePem: string;
let privateJwk: string;

before(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  privatePem = await exportPKCS8(privateKey);
  privateJwk = JSON.stringify({ ...(await exportJWK(privateKey)), kid: 'svc-key-1', alg: 'RS256' });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'svc-key-1', alg: 'RS256', use: 'sig' };
  server = await startAuthorizationServer({
    clients: [
      {
        clientId: 'basic-app',
        authMethod: 'client_secret_basic',
        secret: SECRET,
        scope: 'User.Read.All',
        tenantId: 'tenant-a',
      },
      { clientId: 'post-app', authMethod: 'client_secret_post', secret: POST_SECRET, scope: 'User.Read.All' },
      { clientId: 'jwt-app', authMethod: 'private_key_jwt', jwks: { keys: [jwk] }, scope: 'okta.users.read' },
    ],
    resources: [{ resource: RESOURCE, scope: 'User.Read.All okta.users.read' }],
  });
});
after(() => server.close());

function options(overrides: Record<string, unknown>): ClientCredentialsOptions {
  const problems: string[] = [];
  const parsed = parseClientCredentialsOptions(
    { token_url: server.tokenUrl, resource: RESOURCE, ...overrides },
    'options.oauth',
    problems,
    true,
  );
  assert.deepEqual(problems, []);
  return parsed!;
}

const basic = () =>
  options({ client_id: 'basic-app', auth_method: 'client_secret_basic', scopes: ['User.Read.All'] });
const jwtApp = () =>
  options({ client_id: 'jwt-app', auth_method: 'private_key_jwt', scopes: ['okta.users.read'] });
const live = () => new AbortController().signal;
const LOCAL: BrokerOptions = { allowLoopbackHttp: true };
const brokerFor = (
  settings: ClientCredentialsOptions,
  credential: ConstructorParameters<typeof ClientCredentialsBroker>[1],
  extra: BrokerOptions = {},
) => new ClientCredentialsBroker(settings, credential, { ...LOCAL, ...extra });

async function refusal(promise: Promise<unknown>): Promise<{ code: string; text: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isSourceError(error), `expected a SourceError, got ${inspect(error)}`);
    return { code: error.code, text: `${error.message} ${inspect(error, { depth: 5 })}` };
  }
  assert.fail('expected a refusal');
}

describe('ClientCredentialsBroker against oidc-provider', { timeout: 30_000 }, () => {
  it('gets a JWT access token with client_secret_basic whose audience, scope and issuer verify', async () => {
    const broker = brokerFor(basic(), staticCredential('BASIC', SECRET));
    const token = await broker.token(live());
    const { payload, protectedHeader } = await jwtVerify(
      token.accessToken,
      createRemoteJWKSet(new URL(server.jwksUrl)),
      {
        issuer: server.issuer,
        audience: RESOURCE,
      },
    );
    assert.equal(protectedHeader.typ, 'at+jwt');
    assert.equal(payload['scope'], 'User.Read.All');
    assert.equal(token.claims?.['tid'], 'tenant-a');
    assert.ok(token.expiresAt > Date.now() + 250_000);
  });

  it('gets a token with client_secret_post', async () => {
    const broker = brokerFor(
      options({ client_id: 'post-app', auth_method: 'client_secret_post', scopes: ['User.Read.All'] }),
      staticCredential('POST', POST_SECRET),
    );
    assert.equal((await broker.token(live())).claims?.['client_id'], 'post-app');
  });

  it('gets a token with private_key_jwt from a PKCS #8 key and from a private JWK', async () => {
    for (const key of [privatePem, privateJwk]) {
      const broker = brokerFor(jwtApp(), staticCredential('KEY', key));
      const token = await broker.token(live());
      assert.equal(token.claims?.['scope'], 'okta.users.read');
    }
  });

  it('sends a fresh assertion each time, and the server refuses a replayed one', async () => {
    const bodies: string[] = [];
    const recording: TokenTransport = (exchange) => {
      bodies.push(exchange.body ?? '');
      return fetchTokenTransport(exchange);
    };
    const broker = brokerFor(jwtApp(), staticCredential('KEY', privatePem), { transport: recording });
    const first = await broker.token(live());
    broker.invalidate(first);
    await broker.token(live());
    const assertions = bodies.map((b) => new URLSearchParams(b).get('client_assertion'));
    assert.equal(assertions.length, 2);
    assert.notEqual(assertions[0], assertions[1]);

    const replay = await fetch(server.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: bodies[0],
    });
    assert.equal(replay.status, 401);
    assert.equal(((await replay.json()) as { error: string }).error, 'invalid_client');
  });

  it('maps a wrong secret to provider_authorization_required without the secret in the error', async () => {
    const wrong = 'wrong-secret-0123456789-zyxwvutsrqp';
    const broker = brokerFor(basic(), staticCredential('BASIC', wrong));
    const { code, text } = await refusal(broker.token(live()));
    assert.equal(code, 'provider_authorization_required');
    assert.ok(!text.includes(wrong) && !text.includes(SECRET), text);
  });

  it('maps a key the client is not registered with to provider_authorization_required', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const other = await exportPKCS8(privateKey);
    const { code, text } = await refusal(brokerFor(jwtApp(), staticCredential('KEY', other)).token(live()));
    assert.equal(code, 'provider_authorization_required');
    assert.ok(!text.includes(other.slice(40, 80)));
  });

  it('maps unusable key material to provider_authorization_required without quoting it', async () => {
    const junk = '{"kty":"RSA","d":"not-a-key-material-0123456789"';
    const { code, text } = await refusal(brokerFor(jwtApp(), staticCredential('KEY', junk)).token(live()));
    assert.equal(code, 'provider_authorization_required');
    assert.ok(!text.includes('not-a-key-material'), text);
  });

  it('maps a resource the server does not serve to provider_authorization_required', async () => {
    const broker = brokerFor(
      options({
        client_id: 'basic-app',
        auth_method: 'client_secret_basic',
        resource: 'http://127.0.0.1:9/other/',
      }),
      staticCredential('BASIC', SECRET),
    );
    assert.equal((await refusal(broker.token(live()))).code, 'provider_authorization_required');
  });

  it('maps a missing or unresolvable credential to provider_authorization_required', async () => {
    assert.equal(
      (await refusal(brokerFor(basic(), undefined).token(live()))).code,
      'provider_authorization_required',
    );
    const failing = { name: 'GONE', value: () => Promise.reject(new Error('no such secret')) };
    assert.equal(
      (await refusal(brokerFor(basic(), failing).token(live()))).code,
      'provider_authorization_required',
    );
  });

  it('keeps the token until shortly before it expires, then asks again', async () => {
    let now = Date.now();
    const broker = brokerFor(basic(), staticCredential('BASIC', SECRET), {
      clock: () => now,
    });
    const before = server.tokenRequests;
    const first = await broker.token(live());
    now += 200_000;
    assert.equal(await broker.token(live()), first);
    assert.equal(server.tokenRequests - before, 1);
    now += 75_000; // 275 s into a 300 s token: inside the 30 s margin
    const second = await broker.token(live());
    assert.notEqual(second.accessToken, first.accessToken);
    assert.equal(server.tokenRequests - before, 2);
  });

  it('lets concurrent callers share one token request', async () => {
    const broker = brokerFor(basic(), staticCredential('BASIC', SECRET));
    const before = server.tokenRequests;
    const tokens = await Promise.all(Array.from({ length: 8 }, () => broker.token(live())));
    assert.equal(new Set(tokens.map((t) => t.accessToken)).size, 1);
    assert.equal(server.tokenRequests - before, 1);
    assert.equal(broker.requests, 1);
  });

  it('lets a caller give up on a slow request while another caller still gets the token', async () => {
    server.delayMs = 300;
    try {
      const broker = brokerFor(basic(), staticCredential('BASIC', SECRET));
      const quitter = new AbortController();
      const patient = broker.token(live());
      const impatient = broker.token(quitter.signal);
      setTimeout(() => quitter.abort(new Error('deadline')), 50);
      await assert.rejects(impatient, /deadline/);
      assert.ok((await patient).accessToken.length > 0);
      assert.equal(broker.requests, 1);
    } finally {
      server.delayMs = 0;
    }
  });

  it('aborts the request when its only caller gives up', async () => {
    server.delayMs = 300;
    try {
      const broker = brokerFor(basic(), staticCredential('BASIC', SECRET));
      const signal = AbortSignal.timeout(50);
      await assert.rejects(broker.token(signal), (e: Error) => e.name === 'TimeoutError');
      // The next caller starts a request of its own rather than joining the abandoned one.
      server.delayMs = 0;
      assert.ok((await broker.token(live())).accessToken.length > 0);
      assert.equal(broker.requests, 2);
    } finally {
      server.delayMs = 0;
    }
  });

  it('ends its own overlong request as source_timeout', async () => {
    server.delayMs = 400;
    try {
      const broker = brokerFor(basic(), staticCredential('BASIC', SECRET), {
        requestTimeoutMs: 50,
      });
      assert.equal((await refusal(broker.token(live()))).code, 'source_timeout');
    } finally {
      server.delayMs = 0;
    }
  });

  it('maps a token endpoint outage and a refused connection to source_unavailable', async () => {
    server.unavailable = true;
    try {
      const broker = brokerFor(basic(), staticCredential('BASIC', SECRET));
      assert.equal((await refusal(broker.token(live()))).code, 'source_unavailable');
    } finally {
      server.unavailable = false;
    }
    const problems: string[] = [];
    const closed = parseClientCredentialsOptions(
      { token_url: 'http://127.0.0.1:9/token', client_id: 'basic-app', auth_method: 'client_secret_basic' },
      'oauth',
      problems,
      true,
    )!;
    const { code, text } = await refusal(brokerFor(closed, staticCredential('BASIC', SECRET)).token(live()));
    assert.equal(code, 'source_unavailable');
    assert.ok(!text.includes(SECRET));
  });
});

describe('ClientCredentialsBroker transport policy', () => {
  it('refuses a plain-http token endpoint unless loopback http is allowed', async () => {
    const broker = new ClientCredentialsBroker(
      {
        tokenUrl: new URL('http://127.0.0.1:9/token'),
        clientId: 'a',
        authMethod: 'client_secret_post',
        scopes: [],
      },
      staticCredential('POST', POST_SECRET),
    );
    assert.equal((await refusal(broker.token(live()))).code, 'source_unavailable');
  });
});

describe('parseClientCredentialsOptions', () => {
  it('names every bad field', () => {
    const problems: string[] = [];
    const parsed = parseClientCredentialsOptions(
      {
        token_url: 'http://idp.example.com/token',
        client_id: '',
        auth_method: 'magic',
        scopes: ['a b'],
        extra: 1,
      },
      'sources[2].options.oauth',
      problems,
      true,
    );
    assert.equal(parsed, undefined);
    for (const field of ['token_url', 'client_id', 'auth_method', 'scopes', 'extra'])
      assert.ok(
        problems.some((p) => p.includes(`sources[2].options.oauth.${field}`)),
        `${field}: ${problems.join('; ')}`,
      );
  });

  it('admits http only on a loopback host, and only when allowed', () => {
    const at = (url: string, allow: boolean) => {
      const problems: string[] = [];
      parseClientCredentialsOptions(
        { token_url: url, client_id: 'a', auth_method: 'client_secret_post' },
        'o',
        problems,
        allow,
      );
      return problems.length === 0;
    };
    assert.equal(at('https://login.example.com/token', false), true);
    assert.equal(at('http://127.0.0.1:4000/token', true), true);
    assert.equal(at('http://127.0.0.1:4000/token', false), false);
    assert.equal(at('http://idp.example.com/token', true), false);
  });
});
