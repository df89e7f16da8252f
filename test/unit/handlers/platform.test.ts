/**
 * The platform Lambda entry (`lambda/handlers/platform.ts`) end to end in process: the real `@middy/core`
 * streamify mode, the real adapters, the BOS platform over the demo directory, and a local token issuer
 * whose JWKS URL the verifier fetches as it would a deployed issuer's. The fake `awslambda` global from
 * test/helpers produces the real byte format (prelude + 8 NUL bytes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../../lambda/bos/index.js';
import { startDevIssuer } from '../../../local/dev-auth/index.js';
import type { RunningDevIssuer } from '../../../local/dev-auth/index.js';
import { installFakeAwsLambda } from '../../helpers/fake-awslambda.js';
import { FakeResponseStream, parseStreamedResponse } from '../../helpers/fake-response-stream.js';
import { linesAt, withLogLines } from '../../helpers/log-lines.js';
import type { StreamedResponse } from '../../helpers/fake-response-stream.js';
import { lambdaContext, mcpPostEvent, restEvent } from '../../helpers/rest-events.js';

type StreamingHandler = (
  event: APIGatewayProxyEvent,
  stream: FakeResponseStream,
  context: Context,
) => Promise<void>;

const ENDPOINT = 'https://bos.example.test/mcp/apps/bos/platform';
const ENV_NAMES = [
  'MCP_ENDPOINT',
  'AUTH_ISSUER',
  'AUTH_AUDIENCE',
  'AUTH_JWKS_URL',
  'BOS_FIXTURE_LATENCY_SCALE',
] as const;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

interface SseMessage {
  id?: number;
  method?: string;
  params?: { sequence: number; status: string; source: { source_identity: string } };
  result?: { isError: boolean; structuredContent: { result: { metadata: { completeness: string } } } };
}

describe('platform Lambda entry (BOS platform)', () => {
  let restore: () => void = () => undefined;
  let handler: StreamingHandler;
  let issuer: RunningDevIssuer;
  const savedEnv = new Map<string, string | undefined>();

  before(async () => {
    for (const name of ENV_NAMES) savedEnv.set(name, process.env[name]);
    for (const name of ENV_NAMES) delete process.env[name];
    issuer = await startDevIssuer({ audience: ENDPOINT });
    // middy calls awslambda.streamifyResponse when the module loads, so the fake goes in first.
    restore = installFakeAwsLambda();
    // A module instance of this file's own: the unit suite shares one process, and another file may have
    // loaded the entry under another environment (the entry composes from the environment at load).
    const entry: unknown = await import(`../../../lambda/handlers/platform.js?from=${import.meta.url}`);
    ({ handler } = entry as { handler: StreamingHandler });
  });
  after(async () => {
    restore();
    for (const [name, value] of savedEnv) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await issuer?.close();
  });

  function configure(): void {
    Object.assign(process.env, {
      MCP_ENDPOINT: ENDPOINT,
      AUTH_ISSUER: issuer.issuer,
      AUTH_AUDIENCE: issuer.audience,
      AUTH_JWKS_URL: issuer.jwksUrl,
      // Not deployed, so the local-only knob is honoured: pages arrive without fixture latency.
      BOS_FIXTURE_LATENCY_SCALE: '0',
    });
  }

  /** The log and EMF lines of every invocation so far (taken, not printed). */
  const logLines: string[] = [];

  async function invoke(event: APIGatewayProxyEvent): Promise<StreamedResponse> {
    const stream = new FakeResponseStream();
    const { lines } = await withLogLines(() => handler(event, stream, lambdaContext()));
    logLines.push(...lines);
    return parseStreamedResponse(stream.bytes());
  }

  const bearer = () => ({ Authorization: `Bearer ${issuer.tokens['dev-user']}` });

  // Runs first: the entry composes on the first invocation that succeeds, so configuration comes after it.
  it('answers a generic 500 without configuration details when token validation is not configured', async () => {
    // Act
    const { prelude, body } = await invoke(mcpPostEvent(initialize));
    // Assess
    assert.equal(prelude.statusCode, 500);
    assert.doesNotMatch(body, /AUTH_|MCP_ENDPOINT|required/);
    assert.equal((JSON.parse(body) as { error: { code: number } }).error.code, -32603);
    // The operator's side of it: one error line, naming what is missing.
    const [error] = linesAt(logLines, 'ERROR');
    assert.equal(error?.['message'], 'invocation failed before the response started');
    assert.match(JSON.stringify(error), /AUTH_/);
  });

  it('refuses a request without a bearer token with 401 and the resource metadata URL', async () => {
    // Prepare
    configure();
    // Act
    const { prelude, body } = await invoke(mcpPostEvent(initialize));
    // Assess
    assert.equal(prelude.statusCode, 401);
    assert.match(
      prelude.headers?.['www-authenticate'] ?? '',
      /resource_metadata="https:\/\/bos\.example\.test\/\.well-known\/oauth-protected-resource\/mcp\/apps\/bos\/platform"/,
    );
    assert.equal((JSON.parse(body) as { error: { code: number } }).error.code, -32011);
  });

  it('serves the RFC 9728 metadata on both well-known paths without authentication', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp/apps/bos/platform',
      '/.well-known/oauth-protected-resource',
    ]) {
      // Act
      const { prelude, body } = await invoke(
        restEvent({ path, resource: path, httpMethod: 'GET', body: null }),
      );
      // Assess
      assert.equal(prelude.statusCode, 200, path);
      const metadata = JSON.parse(body) as { resource: string; scopes_supported: string[] };
      assert.equal(metadata.resource, ENDPOINT);
      assert.deepEqual(metadata.scopes_supported, ['bos.read']);
    }
  });

  it('initializes the BOS platform for dev-user and advertises bos/source-results/v1', async () => {
    // Act
    const { prelude, body } = await invoke(mcpPostEvent(initialize, bearer()));
    // Assess
    assert.equal(prelude.statusCode, 200);
    assert.ok(prelude.headers?.['mcp-session-id']);
    const message = JSON.parse(body) as {
      result: { serverInfo: { name: string }; capabilities: { experimental: Record<string, unknown> } };
    };
    assert.equal(message.result.serverInfo.name, 'bos-platform');
    assert.deepEqual(message.result.capabilities.experimental['bos/source-results/v1'], {
      pageSize: 100,
      maxConcurrentSources: 8,
      contractUri: 'https://dfsm.ai/apps/bos/source-results-v1.html',
    });
  });

  it('streams a negotiated bos_execute as source notifications, then the final frame', async () => {
    // Prepare
    const init = await invoke(mcpPostEvent(initialize, bearer()));
    const session = {
      ...bearer(),
      'Mcp-Session-Id': init.prelude.headers?.['mcp-session-id'] ?? '',
      'MCP-Protocol-Version': '2025-11-25',
    };
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'bos_execute',
        arguments: {
          context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
          tool_name: 'search_people',
          arguments: { query: 'a' },
        },
        _meta: {
          'io.modelcontextprotocol/clientCapabilities': { experimental: { 'bos/source-results/v1': {} } },
        },
      },
    };
    // Act
    const { prelude, body } = await invoke(mcpPostEvent(call, session));
    // Assess
    assert.equal(prelude.statusCode, 200);
    assert.match(prelude.headers?.['content-type'] ?? '', /^text\/event-stream/);
    // The runtime's SSE priming event (empty data) may come first; the extension comment precedes every frame.
    const comment = body.indexOf(': bos/source-results/v1\n');
    assert.ok(comment >= 0 && comment < body.indexOf('data: {'), body.slice(0, 200));
    const messages = body
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as SseMessage);
    const notifications = messages.filter((m) => m.method === 'notifications/bos/source_result');
    assert.deepEqual(
      notifications.map((m) => m.params?.sequence),
      notifications.map((_, index) => index + 1),
    );
    const terminals = notifications.filter((m) => m.params?.status !== 'page');
    assert.equal(terminals.length, 5);
    const final = messages.at(-1);
    assert.equal(final?.id, 7);
    assert.equal(final?.result?.isError, true, 'acme-legacy hangs and times out');
  });

  it('answers 404 outside the platform paths, still in the streaming format', async () => {
    // Act
    const { prelude } = await invoke(restEvent({ path: '/elsewhere', resource: '/{proxy+}' }));
    // Assess
    assert.equal(prelude.statusCode, 404);
  });

  it('turns an invalid base64 body into HTTP 400 with a JSON-RPC parse error', async () => {
    // Act
    const { prelude, body } = await invoke(restEvent({ body: 'AAE', isBase64Encoded: true }));
    // Assess
    assert.equal(prelude.statusCode, 400);
    assert.equal((JSON.parse(body) as { error: { code: number } }).error.code, -32700);
  });
});
