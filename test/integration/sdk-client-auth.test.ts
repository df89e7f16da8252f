/**
 * Issue 7 "Must show": the official SDK client (`@modelcontextprotocol/sdk` 1.32.2, `Client` +
 * `StreamableHTTPClientTransport`) against the local stack as `npm start` runs it (`startStack` with its
 * dev issuer and dev tokens), the bearer token passed as `requestInit.headers.Authorization`: initialize,
 * tools/list, bos_list_contexts, bos_execute as JSON and opted in to streaming, DELETE. Without a token the
 * SDK surfaces the 401 as it really does: a `StreamableHTTPError` with code 401 and our JSON-RPC body, the
 * challenge naming the RFC 9728 metadata, which an SDK OAuth provider then follows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Notification } from '@modelcontextprotocol/sdk/types.js';
import { DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { optInMeta, startBosStack } from '../helpers/bos-stack.js';
import type { FinalResult, RecordJson, SourceResultParams } from '../helpers/bos-stream.js';
import { operationResultOf, pairKey } from '../helpers/bos-stream.js';

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

describe('the official SDK client with a bearer token against the local stack', { timeout: 300_000 }, () => {
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

  it('with an OAuth provider and no token follows the challenge to the RFC 9728 document and the issuer it names, and does not connect', async () => {
    // Prepare: a provider with nothing stored; the SDK then runs its discovery (MCP authorization).
    const exchanges: string[] = [];
    const redirects: URL[] = [];
    const redirectUrl = 'http://127.0.0.1:9/callback';
    const provider: OAuthClientProvider = {
      redirectUrl,
      clientMetadata: { redirect_uris: [redirectUrl], client_name: 'sdk-auth-it' },
      clientInformation: () => undefined,
      saveClientInformation: () => undefined,
      tokens: () => undefined,
      saveTokens: () => undefined,
      redirectToAuthorization: (authorizationUrl) => void redirects.push(authorizationUrl),
      saveCodeVerifier: () => undefined,
      codeVerifier: () => 'unused',
    };
    const client = new Client({ name: 'sdk-auth-it', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(url, {
      fetch: recordingFetch(exchanges),
      authProvider: provider,
    });

    // Act
    await assert.rejects(client.connect(transport));
    await client.close();

    // Assess: the 401, then our metadata document, then the authorization server it lists.
    const metadataUrl = `${bos.stack.baseUrl}/.well-known/oauth-protected-resource${PATH}`;
    const issuer = bos.stack.environment['AUTH_ISSUER'] ?? assert.fail('no issuer');
    assert.deepEqual(exchanges.slice(0, 3), [
      `POST ${bos.url} -> 401 | www-authenticate: Bearer resource_metadata="${metadataUrl}"`,
      `GET ${metadataUrl} -> 200`,
      `GET ${issuer}/.well-known/oauth-authorization-server -> 200`,
    ]);
    // The local dev issuer only serves keys (no authorization or token endpoint), so no login starts here.
    assert.deepEqual(redirects, []);
    assert.ok(exchanges.every((e) => !e.includes('authorization sent')));
  });
});
