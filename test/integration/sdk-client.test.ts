/**
 * The official SDK client (`@modelcontextprotocol/sdk` Client + StreamableHTTPClientTransport) against
 * our runtime on `serveNode`: the handshake, listing and calling tools, progress from a streaming tool,
 * and session termination with DELETE.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '../../lambda/mcp/index.js';
import { serveNode, type NodeServerHandle } from '../../local/node-http.js';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk-peer-test', version: '1.2.3' });
  server.registerTool(
    {
      name: 'echo',
      description: 'Echoes the message',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
    (args) =>
      Promise.resolve({
        content: [{ type: 'text', text: `echo: ${typeof args.message === 'string' ? args.message : ''}` }],
      }),
  );
  server.registerStreamingTool(
    {
      name: 'count',
      description: 'Reports progress for each step, then the number of steps',
      inputSchema: { type: 'object', properties: { steps: { type: 'integer' } }, required: ['steps'] },
    },
    (args, ctx) => {
      const steps = Number(args.steps);
      for (let step = 1; step <= steps; step++) ctx.progress(step, steps, `step ${step}`);
      return Promise.resolve({ content: [{ type: 'text', text: `counted ${steps}` }] });
    },
  );
  return server;
}

describe('official SDK client against our runtime', { timeout: 120_000 }, () => {
  let front: NodeServerHandle;
  let url: URL;

  before(async () => {
    const server = buildServer();
    front = await serveNode((request, ctx) => server.handle(request, ctx));
    url = new URL(`${front.url}/mcp`);
  });
  after(async () => {
    await front.close();
  });

  it('initializes, lists and calls tools, receives progress, and ends its session with DELETE', async () => {
    // Prepare
    const client = new Client({ name: 'sdk-peer', version: '0.0.1' });
    const transport = new StreamableHTTPClientTransport(url);
    const progress: Progress[] = [];

    // Act
    await client.connect(transport);
    const sessionId = transport.sessionId;
    const tools = await client.listTools();
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    const counted = await client.callTool({ name: 'count', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    await transport.terminateSession();
    await client.close();

    // Assess
    assert.deepEqual(client.getServerVersion(), { name: 'sdk-peer-test', version: '1.2.3' });
    assert.equal(typeof sessionId, 'string');
    assert.deepEqual(tools.tools.map((t) => t.name).sort(), ['count', 'echo']);
    assert.deepEqual(echoed.content, [{ type: 'text', text: 'echo: hi' }]);
    assert.deepEqual(counted.content, [{ type: 'text', text: 'counted 3' }]);
    assert.deepEqual(
      progress.map((p) => [p.progress, p.total, p.message]),
      [
        [1, 3, 'step 1'],
        [2, 3, 'step 2'],
        [3, 3, 'step 3'],
      ],
    );
    assert.equal(transport.sessionId, undefined, 'the transport forgot the terminated session');

    // The terminated session is gone on the server too (MCP transports: 404 after termination).
    const after = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId ?? '',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    await after.body?.cancel();
    assert.equal(after.status, 404);
  });
});
