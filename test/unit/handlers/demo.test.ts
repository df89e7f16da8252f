/**
 * The demo Lambda entry (`test/helpers/demo-entry.ts`) end to end in process: the real `@middy/core` streamify
 * mode, the shared REST entry (`compose-entry.ts`), the real adapters and the demo MCP server, with the fake `awslambda` global from test/helpers producing the real byte
 * format (prelude + 8 NUL bytes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { installFakeAwsLambda } from '../../helpers/fake-awslambda.js';
import { FakeResponseStream, parseStreamedResponse } from '../../helpers/fake-response-stream.js';
import type { StreamedResponse } from '../../helpers/fake-response-stream.js';
import { withLogLines } from '../../helpers/log-lines.js';
import { lambdaContext, mcpPostEvent, restEvent } from '../../helpers/rest-events.js';

type StreamingHandler = (
  event: APIGatewayProxyEvent,
  stream: FakeResponseStream,
  context: Context,
) => Promise<void>;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

describe('demo Lambda entry (middy streamifyResponse)', () => {
  let restore: () => void = () => undefined;
  let handler: StreamingHandler;

  before(async () => {
    // middy calls awslambda.streamifyResponse when the module loads, so the fake goes in first.
    restore = installFakeAwsLambda();
    ({ handler } = (await import('../../helpers/demo-entry.js')) as unknown as {
      handler: StreamingHandler;
    });
  });
  after(() => restore());

  async function invoke(
    event: APIGatewayProxyEvent,
  ): Promise<StreamedResponse & { stream: FakeResponseStream }> {
    const stream = new FakeResponseStream();
    // The entry's call lines and metrics are not what these tests check: taken, not printed.
    await withLogLines(() => handler(event, stream, lambdaContext()));
    return { ...parseStreamedResponse(stream.bytes()), stream };
  }

  async function openSession(): Promise<string> {
    const { prelude } = await invoke(mcpPostEvent(initialize));
    const sessionId = prelude.headers?.['mcp-session-id'];
    assert.ok(sessionId !== undefined, 'initialize returns mcp-session-id');
    return sessionId;
  }

  it('answers initialize with a JSON result and the session id in the prelude headers', async () => {
    // Act
    const { prelude, body } = await invoke(mcpPostEvent(initialize));
    // Assess
    assert.equal(prelude.statusCode, 200);
    assert.match(prelude.headers?.['content-type'] ?? '', /^application\/json/);
    assert.ok(prelude.headers?.['mcp-session-id']);
    const message = JSON.parse(body) as { id: number; result: { serverInfo: { name: string } } };
    assert.equal(message.id, 1);
    assert.equal(message.result.serverInfo.name, 'bos-mcp-demo');
  });

  it('answers an accepted notification with 202 and still writes the prelude (one empty chunk)', async () => {
    // Prepare
    const sessionId = await openSession();
    const event = mcpPostEvent(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
    );
    // Act
    const { prelude, body, stream } = await invoke(event);
    // Assess
    assert.equal(prelude.statusCode, 202);
    assert.equal(body, '');
    assert.equal(stream.writeCalls, 1);
    assert.equal(stream.writableEnded, true);
  });

  it('streams demo_events as SSE: one progress notification per event, then the result', async () => {
    // Prepare
    const sessionId = await openSession();
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'demo_events', arguments: { count: 3, delayMs: 0 }, _meta: { progressToken: 'p1' } },
    };
    // Act
    const { prelude, body } = await invoke(
      mcpPostEvent(call, { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' }),
    );
    // Assess
    assert.equal(prelude.statusCode, 200);
    assert.equal(prelude.headers?.['content-type'], 'text/event-stream');
    const messages = body
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map(
        (line) =>
          JSON.parse(line.slice(6)) as { method?: string; id?: number; params?: { progress: number } },
      );
    const progress = messages
      .filter((m) => m.method === 'notifications/progress')
      .map((m) => m.params?.progress);
    assert.deepEqual(progress, [1, 2, 3]);
    assert.equal(messages.at(-1)?.id, 7);
  });

  it('echoes through the buffered echo tool', async () => {
    // Prepare
    const sessionId = await openSession();
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
    };
    // Act
    const { body } = await invoke(
      mcpPostEvent(call, { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' }),
    );
    // Assess
    const text = body.includes('data: ') ? (body.split('data: ').at(-1) ?? '') : body;
    const result = JSON.parse(text) as { result: { content: { text: string }[] } };
    assert.equal(result.result.content[0]?.text, 'hi');
  });

  it('turns an invalid base64 body into HTTP 400 with a JSON-RPC parse error', async () => {
    // Act
    const { prelude, body } = await invoke(restEvent({ body: 'AAE', isBase64Encoded: true }));
    // Assess
    assert.equal(prelude.statusCode, 400);
    assert.deepEqual(JSON.parse(body), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: invalid base64 body' },
    });
  });

  it('answers 404 outside the platform endpoint, still in the streaming format', async () => {
    // Act
    const { prelude } = await invoke(restEvent({ path: '/elsewhere', resource: '/{proxy+}' }));
    // Assess
    assert.equal(prelude.statusCode, 404);
  });

  it('canonicalises a trailing slash on the endpoint before routing', async () => {
    // Act
    const { prelude } = await invoke(mcpPostEvent(initialize, {}, { path: '/mcp/apps/bos/platform/' }));
    // Assess
    assert.equal(prelude.statusCode, 200);
  });
});
