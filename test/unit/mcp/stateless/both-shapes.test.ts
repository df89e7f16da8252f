/**
 * Both shapes on one endpoint at once: an official-SDK session-ful client (`@modelcontextprotocol/sdk`
 * Client + StreamableHTTPClientTransport, 2025-11-25) and raw 2026-07-28 stateless requests are
 * interleaved — concurrently — against one `McpServer` on `serveNode`, and neither disturbs the other:
 * the SDK session keeps working and sees only session-ful results; stateless answers never carry a
 * session id, and even a stateless request naming the live session id leaves it intact.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer, silentLogger } from '../../../../lambda/mcp/index.js';
import { serveNode, type NodeServerHandle } from '../../../../local/node-http.js';
import { postHeaders } from '../helpers.js';
import { modernHeaders, modernMeta } from './helpers.js';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'both-shapes', version: '2.0.0', logger: silentLogger });
  server.registerTool(
    {
      name: 'echo',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
    (args, ctx) =>
      Promise.resolve({
        content: [
          { type: 'text', text: `${ctx.shape}: ${typeof args.message === 'string' ? args.message : ''}` },
        ],
      }),
  );
  server.registerStreamingTool(
    { name: 'count', inputSchema: { type: 'object', properties: { steps: { type: 'integer' } } } },
    (args, ctx) => {
      const steps = Number(args.steps);
      for (let step = 1; step <= steps; step++) ctx.progress(step, steps);
      return Promise.resolve({ content: [{ type: 'text', text: `${ctx.shape} counted ${steps}` }] });
    },
  );
  return server;
}

interface WireAnswer {
  status: number;
  sessionHeader: string | null;
  body: { result?: { resultType?: string; content?: { text: string }[] }; error?: { code: number } };
}

describe('session-ful SDK client and stateless requests on one server', () => {
  let front: NodeServerHandle;
  let url: URL;

  before(async () => {
    const server = buildServer();
    front = await serveNode((request, ctx) => server.handle(request, ctx), { onError: () => undefined });
    url = new URL(`${front.url}/mcp`);
  });
  after(() => front.close());

  async function stateless(
    id: number,
    message: string,
    extra: Record<string, string> = {},
  ): Promise<WireAnswer> {
    const params = { name: 'echo', arguments: { message }, _meta: modernMeta() };
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...postHeaders, ...modernHeaders('tools/call', params), ...extra },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    });
    return {
      status: res.status,
      sessionHeader: res.headers.get('mcp-session-id'),
      body: (await res.json()) as WireAnswer['body'],
    };
  }

  it('serves both concurrently without either disturbing the other', async () => {
    // Prepare
    const client = new Client({ name: 'sdk-peer', version: '0.0.1' });
    const transport = new StreamableHTTPClientTransport(url);
    await client.connect(transport);
    const sessionId = transport.sessionId ?? '';

    // Act: interleave SDK calls with stateless calls, some concurrently, one naming the live session.
    const [sdkEcho, modernA, sdkCount, modernB] = await Promise.all([
      client.callTool({ name: 'echo', arguments: { message: 'sdk-1' } }),
      stateless(1, 'modern-1'),
      client.callTool({ name: 'count', arguments: { steps: 3 } }, undefined, { onprogress: () => undefined }),
      stateless(2, 'modern-2', { 'mcp-session-id': sessionId }),
    ]);
    const modernC = await stateless(3, 'modern-3', { 'mcp-session-id': sessionId });
    const sdkAfter = await client.callTool({ name: 'echo', arguments: { message: 'sdk-2' } });
    const tools = await client.listTools();
    await transport.terminateSession();
    await client.close();
    const modernAfterDelete = await stateless(4, 'modern-4');

    // Assess: the SDK session saw session-ful results only, and stayed alive until its own DELETE.
    assert.deepEqual(sdkEcho.content, [{ type: 'text', text: 'sessionful: sdk-1' }]);
    assert.deepEqual(sdkCount.content, [{ type: 'text', text: 'sessionful counted 3' }]);
    assert.deepEqual(sdkAfter.content, [{ type: 'text', text: 'sessionful: sdk-2' }]);
    assert.equal('resultType' in sdkEcho, false);
    assert.deepEqual(tools.tools.map((t) => t.name).sort(), ['count', 'echo']);
    // The stateless requests were served statelessly, with no session minted or echoed.
    for (const [answer, message] of [
      [modernA, 'modern-1'],
      [modernB, 'modern-2'],
      [modernC, 'modern-3'],
      [modernAfterDelete, 'modern-4'],
    ] as const) {
      assert.equal(answer.status, 200);
      assert.equal(answer.sessionHeader, null);
      assert.equal(answer.body.result?.resultType, 'complete');
      assert.equal(answer.body.result?.content?.[0]?.text, `stateless: ${message}`);
    }
  });
});
