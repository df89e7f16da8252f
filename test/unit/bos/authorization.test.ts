import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE } from '../../../lambda/bos/index.js';
import type { Harness, Session } from './platform-harness.js';
import { createHarness, ENDPOINT, ISSUER } from './platform-harness.js';
import type { Message } from './sse-frames.js';
import { messagesOf, operationResultOf, pairKey, parseSse } from './sse-frames.js';
import { checkStream } from './stream-invariants.js';

const METADATA_URL = 'https://bos.example.test/.well-known/oauth-protected-resource/mcp/apps/bos/platform';

let harness: Harness;
let devUser: Session;
let outsider: Session;

before(async () => {
  harness = await createHarness();
  devUser = await harness.session(harness.auth.tokens['dev-user']);
  outsider = await harness.session(harness.auth.tokens.outsider);
});
after(() => harness.platform.server.settled());

const json = async (response: Response) => (await response.json()) as Message;

function initialize(headers: Record<string, string>): Request {
  return new Request(ENDPOINT, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

describe('authentication at the endpoint', () => {
  it('answers a request without a token with 401, the challenge and a JSON-RPC error body', async () => {
    const response = await harness.platform.handle(initialize({}));
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), `Bearer resource_metadata="${METADATA_URL}"`);
    const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
    assert.equal(body.id, null);
    assert.equal(typeof body.error.message, 'string');
  });

  it('derives the challenge from MCP_ENDPOINT, not from a forged Host header', async () => {
    const response = await harness.platform.handle(
      initialize({ host: 'evil.example', authorization: 'Bearer x.y.z' }),
    );
    assert.equal(response.status, 401);
    assert.equal(
      response.headers.get('www-authenticate'),
      `Bearer error="invalid_token", resource_metadata="${METADATA_URL}"`,
    );
  });

  it('answers a token without bos.read with 403 insufficient_scope', async () => {
    const token = await harness.auth.mint('dev-user', { scope: 'profile' });
    const response = await harness.platform.handle(initialize({ authorization: `Bearer ${token}` }));
    assert.equal(response.status, 403);
    assert.match(
      response.headers.get('www-authenticate') ?? '',
      /^Bearer error="insufficient_scope", scope="bos.read"/,
    );
    assert.ok(!(await response.text()).includes(token));
  });

  it('serves both RFC 9728 metadata documents without a token', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp/apps/bos/platform',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await harness.platform.handle(new Request(`https://bos.example.test${path}`));
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), {
        resource: ENDPOINT,
        authorization_servers: [ISSUER],
        scopes_supported: ['bos.read'],
        bearer_methods_supported: ['header'],
      });
    }
  });
});

describe('authorization by the directory', () => {
  it('shows outsider no Acme context', async () => {
    const message = await json(await outsider.call('bos_list_contexts', {}));
    assert.deepEqual(message.result?.structuredContent.contexts, []);
    assert.doesNotMatch(JSON.stringify(message), /Acme/);
  });

  it('refuses outsider a dev-user handle exactly as it refuses an unknown handle', async () => {
    const answers = [];
    for (const [session, handle] of [
      [outsider, DEMO_PEOPLE_CONTEXT_HANDLE],
      [outsider, 'ctx_00000000000000000000000000000000'],
      [devUser, 'ctx_00000000000000000000000000000000'],
    ] as const) {
      const response = await session.call(
        'bos_execute',
        { context_handle: handle, tool_name: 'list_people', arguments: {} },
        { optIn: {} },
      );
      // The refusal runs in beforeStream, so even under the opt-in it is the ordinary JSON error answer.
      const body = await json(response);
      answers.push({ status: response.status, type: response.headers.get('content-type'), body });
    }
    assert.equal(answers[0]?.status, 200);
    assert.equal(answers[0]?.type, 'application/json', 'a refusal never opens a stream');
    assert.equal(answers[0]?.body.error?.code, -32602);
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
  });

  it('answers invalid inner arguments under the opt-in with the JSON -32602 error, not a stream', async () => {
    const response = await devUser.call(
      'bos_execute',
      { context_handle: DEMO_SALES_CONTEXT_HANDLE, tool_name: 'search_people', arguments: { query: 7 } },
      { optIn: {} },
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    const body = await json(response);
    assert.equal(body.error?.code, -32602);
  });

  it('refuses outsider bos_list_tools on a dev-user handle the same way', async () => {
    const granted = await json(
      await outsider.call('bos_list_tools', { context_handle: DEMO_SALES_CONTEXT_HANDLE }),
    );
    const unknown = await json(await outsider.call('bos_list_tools', { context_handle: 'ctx_nope' }));
    assert.equal(granted.error?.code, -32602);
    assert.deepEqual(granted, unknown);
  });

  it('gives outsider no default context for the direct tools, as a JSON isError result even under opt-in', async () => {
    const response = await outsider.call('list_people', {}, { optIn: {} });
    // A tool-level refusal (ToolError in beforeStream) keeps its JSON semantics: no stream is opened.
    assert.equal(response.headers.get('content-type'), 'application/json');
    const message = await json(response);
    assert.equal(message.result?.isError, true);
    assert.doesNotMatch(JSON.stringify(message), /bos:person/);
  });

  it('never returns records from sources outside the Sales context, in pages or in the final result', async () => {
    const response = await devUser.call(
      'bos_execute',
      { context_handle: DEMO_SALES_CONTEXT_HANDLE, tool_name: 'search_people', arguments: { query: 'a' } },
      { optIn: {} },
    );
    const sales = (await json(await devUser.call('bos_list_contexts', {}))).result?.structuredContent
      .contexts as unknown[];
    const { notifications, final } = checkStream(
      messagesOf(parseSse(await response.text())),
      'call-1',
      sales[1],
    );
    const pagePairs = new Set(
      notifications.flatMap((n) => [pairKey(n.source), ...n.records.flatMap((r) => r.sources.map(pairKey))]),
    );
    const { records, metadata } = operationResultOf(final);
    const finalPairs = new Set([
      ...records.flatMap((r) => r.sources.map(pairKey)),
      ...metadata.provenance.map(pairKey),
    ]);
    assert.ok(records.length > 0);
    assert.deepEqual([...pagePairs], ['crm/acme-crm']);
    assert.deepEqual([...finalPairs], ['crm/acme-crm']);
  });
});
