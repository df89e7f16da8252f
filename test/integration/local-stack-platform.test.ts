/**
 * The demo entry (`test/helpers/demo-entry.ts`, the runtime without the BOS app) through the whole local stack:
 * bundled as CDK bundles it, run under AWS's runtime client, sessions in DynamoDB Local, reached by the
 * official SDK client through the REST v1 streaming front. The BOS platform entry has its own suites
 * (`bos-*.test.ts`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { type LocalStack, startStack } from '../../local/stack.js';
import { capture } from '../helpers/lambda-handlers/http-capture.js';
import { javaSuite } from '../helpers/java.js';

describe('the demo entry on the local stack', javaSuite(180_000), () => {
  let stack: LocalStack;

  before(async () => {
    stack = await startStack({
      handlerEntry: 'test/helpers/demo-entry.ts',
      bundleDir: '.local/test-bundles/local-stack-platform',
      // Everything the platform entry gets: sessions in DynamoDB Local, and the issuer's AUTH_* variables
      // the deployed-mode configuration requires (the demo server itself checks no token).
      dynamodb: true,
      auth: true,
      poolSize: 2,
      timeoutSeconds: 60,
      onFunctionLog: () => undefined,
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('initializes, calls echo and streams demo_events progress to the official SDK client', async () => {
    // Prepare
    const client = new Client({ name: 'local-stack-test', version: '0.0.1' });
    const transport = new StreamableHTTPClientTransport(new URL(stack.url), {
      requestInit: { headers: { ...stack.clientHeaders } },
    });
    const progress: Progress[] = [];

    // Act
    await client.connect(transport);
    const tools = await client.listTools();
    const echo = await client.callTool({
      name: 'echo',
      arguments: { message: 'through the runtime client' },
    });
    const events = await client.callTool(
      { name: 'demo_events', arguments: { count: 3, delayMs: 100 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    const sessionId = transport.sessionId;
    await client.close();

    // Assess
    assert.deepEqual(tools.tools.map((tool) => tool.name).sort(), ['demo_events', 'echo']);
    assert.deepEqual(echo.content, [{ type: 'text', text: 'through the runtime client' }]);
    assert.deepEqual(
      progress.map((update) => update.progress),
      [1, 2, 3],
    );
    assert.deepEqual(events.content, [{ type: 'text', text: 'sent 3 events' }]);
    assert.match(String(sessionId), /^[\x21-\x7e]+$/);
  });

  it('keeps a session in DynamoDB Local, so a request on another execution environment finds it', async () => {
    // Prepare: two environments, and a session created on whichever took the initialize.
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...stack.clientHeaders,
    };
    const init = await capture(stack.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    const sessionId = String(init.headers['mcp-session-id']);

    // Act: two concurrent calls occupy both environments, so the session is read by each of them.
    const calls = await Promise.all(
      [1, 2].map((id) =>
        capture(stack.url, {
          method: 'POST',
          headers: { ...headers, 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: id + 1,
            method: 'tools/call',
            params: { name: 'demo_events', arguments: { count: 2, delayMs: 300 } },
          }),
        }),
      ),
    );

    // Assess
    assert.equal(init.status, 200);
    for (const call of calls) {
      assert.equal(call.status, 200);
      assert.match(call.body, /sent 2 events/);
    }
  });
});
