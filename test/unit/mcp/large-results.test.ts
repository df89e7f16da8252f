/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON */
/**
 * A large tool result (larger than the replay bound) answers with exactly `JSON.stringify` of its JSON-RPC message,
 * in both protocol shapes, as JSON and as the final SSE frame, inside batches too; a session-ful final frame too
 * large to replay is replaced in the stream store by an error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { structuredText } from '../../../lambda/bos/extension/index.js';
import type { JsonObject, McpServer, ToolResult } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, parseSse, post, readJson, rpc } from './helpers.js';
import { modernPost } from './stateless/helpers.js';

/** About 600 kB of text: larger than the replay bound (358,400 B). */
const structured: JsonObject = {
  result: Array.from({ length: 4_000 }, (_, i) => ({
    record_ref: `bos:person:${i}`,
    display_name: i % 2 === 0 ? 'Zoë "Z" Berg' : 'Łukasz\\García',
    attributes: { office: 'São Paulo', tags: ['a', 'b'] },
  })),
};

const result: ToolResult = {
  content: [{ type: 'text', text: structuredText(structured) }],
  structuredContent: structured,
  isError: false,
};

/** The exact bytes of the session-ful final message for `id`. */
function expected(id: string | number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

/**
 * Checks a stateless final message: the tool's result plus the fields the 2026-07-28 shape adds
 * (`resultType`, server identity `_meta`), written exactly as `JSON.stringify` writes that message.
 */
function assertStateless(text: string): void {
  const message = JSON.parse(text) as { id: unknown; result: JsonObject };
  assert.equal(message.result.resultType, 'complete');
  const { content, structuredContent, isError } = message.result;
  assert.deepEqual({ content, structuredContent, isError }, result);
  assert.equal(text, JSON.stringify({ jsonrpc: '2.0', id: 'same-id', result: message.result }));
}

function server(): McpServer {
  const s = makeServer({ keepaliveMs: 0 });
  s.registerTool({ name: 'json', inputSchema: { type: 'object' } }, () => Promise.resolve(result));
  s.registerStreamingTool({ name: 'sse', inputSchema: { type: 'object' } }, () => Promise.resolve(result));
  return s;
}

async function sessionCall(s: McpServer, session: string, name: string): Promise<Response> {
  return s.handle(post(rpc('same-id', 'tools/call', { name, arguments: {} }), inSession(session)));
}

function statelessCall(s: McpServer, name: string): Promise<Response> {
  return s.handle(modernPost('same-id', 'tools/call', { name, arguments: {} }));
}

describe('large tool results', () => {
  it('answers session-ful JSON with exactly the JSON.stringify bytes of the message', async () => {
    const s = server();
    const session = await initialize(s);
    const res = await sessionCall(s, session, 'json');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const text = await res.text();
    assert.ok(text.length > 500_000);
    assert.equal(text, expected('same-id'));
  });

  it('answers stateless JSON with exactly the JSON.stringify bytes of the message', async () => {
    const s = server();
    const res = await statelessCall(s, 'json');
    assert.equal(res.headers.get('content-type'), 'application/json');
    assertStateless(await res.text());
  });

  it('ends a stateless SSE stream with the message as its final frame', async () => {
    const s = server();
    const res = await statelessCall(s, 'sse');
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const frames = parseSse(await res.text());
    assert.equal(frames.at(-1)?.event, 'message');
    assertStateless(frames.at(-1)?.data ?? '');
  });

  it('ends a session-ful SSE stream with the message as its final frame, and replays it intact', async () => {
    const s = server();
    const session = await initialize(s);
    const frames = parseSse(await (await sessionCall(s, session, 'sse')).text());
    const final = frames.at(-1);
    assert.ok(final?.id !== undefined);
    assert.equal(final.data, expected('same-id'));
    const priming = frames[0]?.id ?? '';
    const replay = await s.handle(
      new Request('http://localhost/mcp', {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'last-event-id': priming, ...inSession(session) },
      }),
    );
    const replayed = parseSse(await replay.text());
    // The in-memory store keeps any size; the DynamoDB store splits a large final into parts (docs/aws.md).
    assert.deepEqual(
      replayed.map((block) => [block.id, block.data]),
      [[final.id, expected('same-id')]],
    );
  });

  it('writes a large result whole inside a batch response', async () => {
    const s = server();
    const session = await initialize(s, { protocolVersion: '2025-03-26' });
    const batch = await readJson(
      await s.handle(
        post(
          [rpc(1, 'tools/call', { name: 'json', arguments: {} }), rpc(2, 'ping')],
          inSession(session, '2025-03-26'),
        ),
      ),
    );
    assert.equal(batch.status, 200);
    assert.equal(batch.body.length, 2);
    assert.ok(batch.text.startsWith(`[${expected(1)},`));
  });
});
