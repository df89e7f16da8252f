/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON */
/**
 * A tool result whose text is a `LazyJson` answers with exactly the bytes of the same result given as a plain
 * string, in both protocol shapes, as JSON and as the final SSE frame, inside batches too; headers and status do
 * not change, and a session-ful final frame too large to replay is replaced in the stream store by an error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { StructuredText, structuredText } from '../../../lambda/bos/extension/index.js';
import type { JsonObject, McpServer, ToolResult } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, parseSse, post, readJson, rpc } from './helpers.js';
import { modernPost } from './stateless/helpers.js';
import type { HttpResponseLike } from '../../../lambda/mcp/index.js';

/** About 600 kB of text: larger than one chunk and than the replay bound (358,400 B). */
const structured: JsonObject = {
  result: Array.from({ length: 4_000 }, (_, i) => ({
    record_ref: `bos:person:${i}`,
    display_name: i % 2 === 0 ? 'Zoë "Z" Berg' : 'Łukasz\\García',
    attributes: { office: 'São Paulo', tags: ['a', 'b'] },
  })),
};

function result(lazy: boolean): ToolResult {
  return {
    content: [{ type: 'text', text: lazy ? new StructuredText(structured) : structuredText(structured) }],
    structuredContent: structured,
    isError: false,
  };
}

function server(): McpServer {
  const s = makeServer({ keepaliveMs: 0 });
  for (const lazy of [true, false]) {
    const suffix = lazy ? 'lazy' : 'plain';
    s.registerTool({ name: `json-${suffix}`, inputSchema: { type: 'object' } }, () =>
      Promise.resolve(result(lazy)),
    );
    s.registerStreamingTool({ name: `sse-${suffix}`, inputSchema: { type: 'object' } }, () =>
      Promise.resolve(result(lazy)),
    );
  }
  return s;
}

async function sessionCall(s: McpServer, session: string, name: string): Promise<HttpResponseLike> {
  return s.handle(post(rpc('same-id', 'tools/call', { name, arguments: {} }), inSession(session)));
}

function statelessCall(s: McpServer, name: string): Promise<HttpResponseLike> {
  return s.handle(modernPost('same-id', 'tools/call', { name, arguments: {} }));
}

function headersOf(res: HttpResponseLike): [string, string][] {
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (name !== 'mcp-session-id') headers.push([name, value]);
  });
  return headers;
}

describe('tool results with a lazy text block', () => {
  it('answers session-ful JSON with the bytes, status and headers of the plain result', async () => {
    const s = server();
    const session = await initialize(s);
    const lazy = await sessionCall(s, session, 'json-lazy');
    const plain = await sessionCall(s, session, 'json-plain');
    assert.equal(lazy.status, plain.status);
    assert.deepEqual(headersOf(lazy), headersOf(plain));
    const [lazyText, plainText] = [await lazy.text(), await plain.text()];
    assert.ok(plainText.length > 500_000);
    assert.equal(lazyText, plainText);
  });

  it('answers stateless JSON with the bytes, status and headers of the plain result', async () => {
    const s = server();
    const lazy = await statelessCall(s, 'json-lazy');
    const plain = await statelessCall(s, 'json-plain');
    assert.equal(lazy.status, plain.status);
    assert.deepEqual(headersOf(lazy), headersOf(plain));
    const body = await readJson(lazy);
    assert.equal(body.body.result.resultType, 'complete');
    assert.equal(body.text, await plain.text());
  });

  it('ends a stateless SSE stream with the final frame of the plain result', async () => {
    const s = server();
    const lazy = await statelessCall(s, 'sse-lazy');
    const plain = await statelessCall(s, 'sse-plain');
    assert.equal(lazy.headers.get('content-type'), 'text/event-stream');
    assert.deepEqual(headersOf(lazy), headersOf(plain));
    assert.equal(await lazy.text(), await plain.text());
  });

  it('ends a session-ful SSE stream with the final frame of the plain result, and replays an error in its place', async () => {
    const s = server();
    const session = await initialize(s);
    const lazy = parseSse(await (await sessionCall(s, session, 'sse-lazy')).text());
    const plain = parseSse(await (await sessionCall(s, session, 'sse-plain')).text());
    // Event ids are per session, so the two streams number their frames differently.
    assert.deepEqual(
      lazy.map((block) => block.data),
      plain.map((block) => block.data),
    );
    const final = lazy.at(-1);
    assert.ok(final?.id !== undefined && (final.data?.length ?? 0) > 500_000);
    const priming = lazy[0]?.id ?? '';
    const replay = await s.handle(
      new Request('http://localhost/mcp', {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'last-event-id': priming, ...inSession(session) },
      }),
    );
    const replayed = parseSse(await replay.text());
    assert.deepEqual(
      replayed.map((block) => [block.id, JSON.parse(block.data ?? 'null') as unknown]),
      [
        [
          final.id,
          { jsonrpc: '2.0', id: 'same-id', error: { code: -32603, message: 'Result too large to replay' } },
        ],
      ],
    );
  });

  it('writes a lazy result out whole inside a batch response', async () => {
    const s = server();
    const session = await initialize(s, { protocolVersion: '2025-03-26' });
    const batch = (name: string) =>
      s.handle(
        post(
          [rpc(1, 'tools/call', { name, arguments: {} }), rpc(2, 'ping')],
          inSession(session, '2025-03-26'),
        ),
      );
    const lazy = await readJson(await batch('json-lazy'));
    const plain = await readJson(await batch('json-plain'));
    assert.equal(lazy.status, 200);
    assert.equal(lazy.text, plain.text);
    assert.equal(lazy.body.length, 2);
  });
});
