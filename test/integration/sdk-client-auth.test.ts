/**
 * The check that the official SDK client (`@modelcontextprotocol/sdk` 1.32.2, `Client` +
 * `StreamableHTTPClientTransport`) against the local stack as `npm start` runs it (`startStack` with its
 * dev issuer and dev tokens), the bearer token passed as `requestInit.headers.Authorization`: initialize,
 * tools/list, bos_list_contexts, bos_execute as JSON and opted in to streaming, DELETE. Without a token the
 * SDK surfaces the 401 as it really does: a `StreamableHTTPError` with code 401 and our JSON-RPC body, the
 * challenge naming the RFC 9728 metadata. With an `authProvider` the SDK follows it through the whole MCP
 * authorization flow against the dev issuer (RFC 8414 discovery, RFC 7591 registration, code + PKCE,
 * `finishAuth`) and then calls the platform with the token it obtained.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Notification } from '@modelcontextprotocol/sdk/types.js';
import {
  DEMO_COMPLETE_CONTEXT_HANDLE,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
} from '../../lambda/bos/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { optInMeta, startBosStack } from '../helpers/bos-stack.js';
import type { FinalResult, RecordJson, SourceResultParams } from '../helpers/bos-stream.js';
import { operationResultOf, pairKey } from '../helpers/bos-stream.js';
import { javaSuite } from '../helpers/java.js';

const PATH = '/mcp/apps/bos/platform';

const urlOf = (input: string | URL | Request): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/** A `fetch` for the SDK that records each exchange (method, URL, status, challenge, Authorization sent). */
function recordingFetch(into: string[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const sent = new Headers(init?.headers).get('authorization');
    const challenge = response.headers.get('www-authenticate');
    into.push(
      [
        `${init?.method ?? 'GET'} ${urlOf(input)} -> ${response.status}`,
        ...(challenge === null ? [] : [`www-authenticate: ${challenge}`]),
        ...(sent === null ? [] : ['authorization sent']),
      ].join(' | '),
    );
    return response;
  };
}

/** What the in-memory provider kept; `code` is what the redirect carried back. */
interface ProviderStore {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  code?: string;
}

/**
 * A minimal `OAuthClientProvider`: everything in memory, and a "browser" that opens the authorization URL
 * with `redirect: 'manual'` and reads the code from the `Location` the dev issuer answers (it auto-approves).
 */
function inMemoryProvider(options: { loginHint?: string } = {}): {
  provider: OAuthClientProvider;
  store: ProviderStore;
} {
  const store: ProviderStore = {};
  const redirectUrl = 'http://127.0.0.1:9/callback';
  const state = 'sdk-auth-it-state';
  const provider: OAuthClientProvider = {
    redirectUrl,
    clientMetadata: {
      redirect_uris: [redirectUrl],
      client_name: 'sdk-auth-it',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
    state: () => state,
    clientInformation: () => store.client,
    saveClientInformation: (information) => void (store.client = information),
    tokens: () => store.tokens,
    saveTokens: (tokens) => void (store.tokens = tokens),
    saveCodeVerifier: (verifier) => void (store.verifier = verifier),
    codeVerifier: () => store.verifier ?? assert.fail('no code verifier saved'),
    redirectToAuthorization: async (authorizationUrl) => {
      store.authorizationUrl = authorizationUrl;
      if (options.loginHint !== undefined) authorizationUrl.searchParams.set('login_hint', options.loginHint);
      const response = await fetch(authorizationUrl, { redirect: 'manual' });
      assert.equal(response.status, 302, await response.text());
      const location = new URL(response.headers.get('location') ?? assert.fail('no Location'));
      assert.equal(location.origin + location.pathname, redirectUrl);
      assert.equal(location.searchParams.get('state'), state);
      store.code = location.searchParams.get('code') ?? assert.fail(`no code: ${location.search}`);
    },
  };
  return { provider, store };
}

describe('the official SDK client with a bearer token against the local stack', javaSuite(300_000), () => {
  let bos: BosStack;
  let url: URL;

  const connect = async (user: 'dev-user' | 'outsider') => {
    const client = new Client({ name: 'sdk-auth-it', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${bos.token(user)}` } },
    });
    await client.connect(transport);
    return { client, transport };
  };

  before(async () => {
    bos = await startBosStack({ name: 'sdk-client-auth', env: { BOS_FIXTURE_LATENCY_SCALE: '0.25' } });
    url = new URL(bos.url);
  });
  after(async () => {
    await bos?.close();
  });

  it('initializes, lists tools, lists contexts, runs bos_execute, and ends its session with DELETE', async () => {
    // Act
    const { client, transport } = await connect('dev-user');
    const sessionId = transport.sessionId;
    const tools = await client.listTools();
    const contexts = await client.callTool({ name: 'bos_list_contexts', arguments: {} });
    const executed = await client.callTool({
      name: 'bos_execute',
      arguments: { context_handle: DEMO_SALES_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} },
    });
    await transport.terminateSession();
    await client.close();

    // Assess
    assert.equal(client.getServerVersion()?.name, 'bos-platform');
    assert.deepEqual(
      (client.getServerCapabilities()?.experimental as Record<string, unknown>)['bos/source-results/v1'],
      {
        pageSize: 100,
        maxConcurrentSources: 8,
        contractUri: 'https://dfsm.ai/apps/bos/source-results-v1.html',
      },
    );
    assert.deepEqual(tools.tools.map((t) => t.name).sort(), [
      'bos_execute',
      'bos_list_contexts',
      'bos_list_tools',
      'get_person',
      'list_people',
      'search_people',
    ]);
    const listed = contexts.structuredContent as {
      contexts: Array<{ context_handle: string; is_default: boolean }>;
    };
    assert.deepEqual(
      listed.contexts.map((c) => [c.context_handle, c.is_default]),
      [
        [DEMO_PEOPLE_CONTEXT_HANDLE, true],
        [DEMO_SALES_CONTEXT_HANDLE, false],
        [DEMO_COMPLETE_CONTEXT_HANDLE, false],
      ],
    );
    assert.equal(executed.isError, false);
    const envelope = executed.structuredContent as {
      contract_version: string;
      context: { context_handle: string };
    };
    assert.equal(envelope.contract_version, 'bos-identity-mcp/v2');
    assert.equal(envelope.context.context_handle, DEMO_SALES_CONTEXT_HANDLE);
    const { records, metadata } = operationResultOf(executed as unknown as FinalResult);
    assert.ok(records.length > 0);
    assert.equal(metadata.completeness, 'complete');
    assert.deepEqual(new Set(records.flatMap((r) => r.sources.map(pairKey))), new Set(['crm/acme-crm']));

    // The terminated session is gone on the server (MCP transports: 404 after termination).
    assert.equal(typeof sessionId, 'string');
    assert.equal(transport.sessionId, undefined);
    const afterDelete = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bos.token('dev-user')}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId ?? '',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    await afterDelete.body?.cancel();
    assert.equal(afterDelete.status, 404);
  });

  it('receives the source notifications through its fallback handler when one call opts in, and the same final records', async () => {
    // Prepare
    const { client } = await connect('dev-user');
    const notifications: Notification[] = [];
    client.fallbackNotificationHandler = (notification) => {
      notifications.push(notification);
      return Promise.resolve();
    };
    const args = { context_handle: DEMO_SALES_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} };

    // Act
    const streamed = await client.callTool({ name: 'bos_execute', arguments: args, _meta: optInMeta() });
    const plain = await client.callTool({ name: 'bos_execute', arguments: args });
    await client.close();

    // Assess
    assert.ok(notifications.length >= 2, `${notifications.length} notifications`);
    assert.ok(notifications.every((n) => n.method === 'notifications/bos/source_result'));
    const params = notifications.map((n) => n.params as unknown as SourceResultParams);
    assert.deepEqual(
      params.map((p) => p.sequence),
      params.map((_, i) => i + 1),
    );
    assert.equal(params.at(-1)?.status, 'complete');
    const refs = (result: typeof plain) =>
      operationResultOf(result as unknown as FinalResult).records.map((r: RecordJson) => r.record_ref);
    assert.deepEqual(refs(streamed), refs(plain));
  });

  it('shows outsider no context through the same client', async () => {
    const { client } = await connect('outsider');
    const contexts = await client.callTool({ name: 'bos_list_contexts', arguments: {} });
    await client.close();
    assert.deepEqual(contexts.structuredContent, { contexts: [] });
  });

  it('without a token fails to connect with StreamableHTTPError 401 carrying our JSON-RPC body, after a challenge naming the RFC 9728 metadata', async () => {
    // Prepare
    const exchanges: string[] = [];
    const client = new Client({ name: 'sdk-auth-it', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(url, { fetch: recordingFetch(exchanges) });

    // Act
    const failure = await client.connect(transport).then(
      () => assert.fail('connected without a token'),
      (error: unknown) => error,
    );
    await client.close();

    // Assess
    assert.ok(failure instanceof StreamableHTTPError, String(failure));
    assert.equal(failure.code, 401);
    assert.match(failure.message, /"code":-32011/);
    assert.match(failure.message, /"reason":"missing_token"/);
    assert.deepEqual(exchanges, [
      `POST ${bos.url} -> 401 | www-authenticate: Bearer resource_metadata="${bos.stack.baseUrl}/.well-known/oauth-protected-resource${PATH}"`,
    ]);
  });

  it('with an OAuth provider and no token discovers the dev issuer, registers, logs in with PKCE, and then calls bos_list_contexts with the issued token', async () => {
    // Prepare: a provider with nothing stored; the SDK then runs its discovery (MCP authorization).
    const exchanges: string[] = [];
    const login = inMemoryProvider();
    const firstTransport = new StreamableHTTPClientTransport(url, {
      fetch: recordingFetch(exchanges),
      authProvider: login.provider,
    });
    const first = new Client({ name: 'sdk-auth-it', version: '1.0.0' });

    // Act: the first connect ends at the redirect; finishAuth exchanges the code; a new connect uses the token.
    const stopped = await first.connect(firstTransport).then(
      () => assert.fail('connected before logging in'),
      (error: unknown) => error,
    );
    await first.close();
    const code = login.store.code ?? assert.fail('the provider received no authorization code');
    await firstTransport.finishAuth(code);
    const client = new Client({ name: 'sdk-auth-it', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        fetch: recordingFetch(exchanges),
        authProvider: login.provider,
      }),
    );
    const contexts = await client.callTool({ name: 'bos_list_contexts', arguments: {} });
    await client.close();

    // Assess: the discovery chain, registration, the token exchange, then the authorized MCP call.
    assert.ok(stopped instanceof UnauthorizedError, String(stopped));
    const metadataUrl = `${bos.stack.baseUrl}/.well-known/oauth-protected-resource${PATH}`;
    const issuer = bos.stack.environment['AUTH_ISSUER'] ?? assert.fail('no issuer');
    assert.deepEqual(exchanges.slice(0, 5), [
      `POST ${bos.url} -> 401 | www-authenticate: Bearer resource_metadata="${metadataUrl}"`,
      `GET ${metadataUrl} -> 200`,
      `GET ${issuer}/.well-known/oauth-authorization-server -> 200`,
      `POST ${issuer}/register -> 201`,
      // finishAuth runs discovery again before it posts the code.
      `GET ${metadataUrl} -> 200`,
    ]);
    assert.ok(exchanges.includes(`POST ${issuer}/token -> 200`), exchanges.join('\n'));
    assert.ok(exchanges.includes(`POST ${bos.url} -> 200 | authorization sent`), exchanges.join('\n'));
    const authorizeUrl = login.store.authorizationUrl ?? assert.fail('no authorization request');
    assert.equal(authorizeUrl.origin + authorizeUrl.pathname, `${issuer}/authorize`);
    assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorizeUrl.searchParams.get('resource'), bos.url);
    assert.equal(login.store.tokens?.token_type, 'Bearer');
    assert.equal(typeof login.store.tokens?.refresh_token, 'string');
    const listed = contexts.structuredContent as { contexts: Array<{ context_handle: string }> };
    assert.deepEqual(
      listed.contexts.map((c) => c.context_handle),
      [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE, DEMO_COMPLETE_CONTEXT_HANDLE],
    );
  });

  it('logs in as outsider through the same flow when the authorization request carries login_hint=outsider', async () => {
    // Prepare
    const login = inMemoryProvider({ loginHint: 'outsider' });
    const transport = new StreamableHTTPClientTransport(url, { authProvider: login.provider });

    // Act
    await assert.rejects(
      new Client({ name: 'sdk-auth-it', version: '1.0.0' }).connect(transport),
      UnauthorizedError,
    );
    await transport.finishAuth(login.store.code ?? assert.fail('no authorization code'));
    const client = new Client({ name: 'sdk-auth-it', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: login.provider }));
    const contexts = await client.callTool({ name: 'bos_list_contexts', arguments: {} });
    await client.close();

    // Assess
    assert.deepEqual(contexts.structuredContent, { contexts: [] });
  });
});
