/**
 * One answer for a store outage: whichever path a call takes (session-ful or stateless, JSON or streamed,
 * a federated read or `bos_list_contexts`), a directory that cannot answer before the response starts gives
 * HTTP 503 with `Retry-After` and a JSON-RPC error naming the unavailable store.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  createBosPlatform,
  createItemsDirectory,
  createJwtVerifier,
  DEMO_PEOPLE_CONTEXT_HANDLE,
} from '../../../lambda/bos/index.js';
import { silentLogger } from '../../../lambda/mcp/index.js';
import { createDevAuth } from '../../../local/dev-auth/index.js';
import type { DevAuth } from '../../../local/dev-auth/index.js';
import { ENDPOINT, FIXED_NOW, ISSUER, fastDemoSources } from './platform-harness.js';

const execute = { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} };
const optIn = { experimental: { 'bos/source-results/v1': {} } };

describe('a directory outage answers 503 on every path', () => {
  let auth: DevAuth;
  let platform: ReturnType<typeof createBosPlatform>;

  before(async () => {
    auth = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT });
    const refused = () =>
      Promise.reject(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }),
      );
    platform = createBosPlatform({
      directory: createItemsDirectory({ reader: { query: refused, get: refused } }),
      sources: fastDemoSources(),
      verifier: createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks }),
      endpoint: ENDPOINT,
      logger: silentLogger,
      clock: () => FIXED_NOW,
      serverOptions: { name: 'bos-test', version: '0.0.0', keepaliveMs: 60_000 },
    });
  });

  async function post(body: unknown, headers: Record<string, string>) {
    const token = await auth.mint('dev-user');
    const res = await platform.handle(
      new Request(ENDPOINT, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      }),
    );
    const text = await res.text();
    return { res, text };
  }

  function stateless(name: string, args: Record<string, unknown>, capabilities: Record<string, unknown>) {
    return post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name,
          arguments: args,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    );
  }

  async function sessionful(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) {
    const init = await post(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      {},
    );
    const sessionId = init.res.headers.get('mcp-session-id') ?? '';
    const params = { name, arguments: args, ...(meta !== undefined && { _meta: meta }) };
    return post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    );
  }

  function assertOutage(
    answer: { res: Response | { status: number; headers: { get(n: string): string | null } }; text: string },
    label: string,
  ) {
    assert.equal(answer.res.status, 503, `${label}: ${answer.text}`);
    assert.equal(answer.res.headers.get('retry-after'), '1', label);
    const body = JSON.parse(answer.text) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32603, label);
    assert.equal(body.error.message, 'directory store unavailable', label);
  }

  it('stateless bos_list_contexts', async () => {
    assertOutage(await stateless('bos_list_contexts', {}, {}), 'stateless list');
  });

  it('stateless federated read, as JSON and under the streaming opt-in', async () => {
    assertOutage(await stateless('bos_execute', execute, {}), 'stateless read');
    assertOutage(await stateless('bos_execute', execute, optIn), 'stateless streamed read');
  });

  it('session-ful bos_list_contexts and federated read, as JSON and under the streaming opt-in', async () => {
    assertOutage(await sessionful('bos_list_contexts', {}), 'session-ful list');
    assertOutage(await sessionful('bos_execute', execute), 'session-ful read');
    assertOutage(
      await sessionful('bos_execute', execute, { 'io.modelcontextprotocol/clientCapabilities': optIn }),
      'session-ful streamed read',
    );
  });
});
