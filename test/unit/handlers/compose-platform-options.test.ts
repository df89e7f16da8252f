/**
 * Settings that reach the platform only through the composition root: `BOS_CONTRACT_URI` becomes the
 * advertised `contractUri`, `MCP_LISTENER_BUDGET_MS` keeps the GET listener open. The function's own init
 * (`composePlatform`) runs on an environment as the stack sets it, with a local token issuer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { composePlatform } from '../../../lambda/handlers/compose-platform.js';
import type { ComposedApp } from '../../../lambda/handlers/compose-entry.js';
import { silentLogger } from '../../../lambda/mcp/index.js';
import { startDevIssuer } from '../../../local/dev-auth/index.js';
import type { RunningDevIssuer } from '../../../local/dev-auth/index.js';

const ENDPOINT = 'http://127.0.0.1:9/mcp/apps/bos/platform';
const CONTRACT_URI = 'https://docs.example.com/bos/source-results-v1.html';

describe('composition root options', () => {
  let issuer: RunningDevIssuer;
  let app: ComposedApp;
  let token: string;

  before(async () => {
    issuer = await startDevIssuer({ audience: ENDPOINT });
    token = issuer.tokens['dev-user'];
    app = composePlatform(
      {
        MCP_ENDPOINT: ENDPOINT,
        AUTH_ISSUER: issuer.issuer,
        AUTH_AUDIENCE: issuer.audience,
        AUTH_JWKS_URL: issuer.jwksUrl,
        BOS_CONTRACT_URI: CONTRACT_URI,
        MCP_LISTENER_BUDGET_MS: '300',
        MCP_LISTENER_SAFETY_MS: '1000',
      },
      silentLogger,
    );
  });
  after(async () => {
    await issuer?.close();
  });

  function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return app.handle(
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
      {},
    );
  }

  async function initialize(): Promise<{ sessionId: string; result: Record<string, unknown> }> {
    const res = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const body = (await res.json()) as { result: Record<string, unknown> };
    return { sessionId: res.headers.get('mcp-session-id') ?? '', result: body.result };
  }

  it('advertises BOS_CONTRACT_URI as the contractUri of bos/source-results/v1', async () => {
    const { result } = await initialize();
    const capabilities = result.capabilities as { experimental: Record<string, { contractUri: string }> };
    assert.equal(capabilities.experimental['bos/source-results/v1']?.contractUri, CONTRACT_URI);
  });

  it('keeps the GET listener open for MCP_LISTENER_BUDGET_MS, bounded by the deadline less the safety', async () => {
    const { sessionId } = await initialize();
    const get = (deadline: number): Promise<Response> =>
      app.handle(
        new Request(ENDPOINT, {
          method: 'GET',
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-11-25',
          },
        }),
        { deadline },
      );
    let started = Date.now();
    await (await get(Date.now() + 60_000)).text();
    assert.ok(Date.now() - started >= 290, `open ${Date.now() - started} ms`);
    // 1,100 ms to the deadline less 1,000 ms of safety: about 100 ms, not the 300 ms budget.
    started = Date.now();
    await (await get(Date.now() + 1_100)).text();
    assert.ok(Date.now() - started < 250, `open ${Date.now() - started} ms`);
  });
});
