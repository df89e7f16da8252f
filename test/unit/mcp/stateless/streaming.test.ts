/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- response bodies are untyped wire JSON */
/**
 * Streaming in the 2026-07-28 shape: a streaming tool may answer SSE, with no priming event and no
 * event ids (no resumption), a final frame carrying `resultType`, no log frames without `_meta`
 * logLevel, and closing the stream as cancellation (the handler's signal fires). `beforeStream`
 * refusals keep JSON semantics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidParamsError } from '../../../../lambda/mcp/index.js';
import { makeServer, parseSse, readJson } from '../helpers.js';
import { modernMeta, modernPost } from './helpers.js';

function streamingServer(onAbort?: (reason: unknown) => void) {
  const server = makeServer({ keepaliveMs: 0 });
  server.registerStreamingTool(
    { name: 'steps', inputSchema: { type: 'object', properties: { hang: { type: 'boolean' } } } },
    async (args, ctx) => {
      ctx.progress(1, 2, 'half');
      ctx.log('info', 'working');
      if (args.hang === true) {
        await new Promise<void>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            onAbort?.(ctx.signal.reason);
            resolve();
          });
        });
      }
      return { content: [{ type: 'text', text: 'done' }] };
    },
    {
      leadingComment: 'ext/marker',
      beforeStream: (args) =>
        args.refuse === true ? Promise.reject(new InvalidParamsError('refused early')) : Promise.resolve(),
    },
  );
  return server;
}

describe('stateless streaming tools', () => {
  it('stream without priming event or ids and end with a resultType frame', async () => {
    const server = streamingServer();
    const res = await server.handle(
      modernPost(1, 'tools/call', {
        name: 'steps',
        arguments: {},
        _meta: modernMeta({ progressToken: 'p' }),
      }),
    );
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.equal(res.headers.get('mcp-session-id'), null);
    const blocks = parseSse(await res.text());
    assert.equal(
      blocks.some((b) => b.id !== undefined),
      false,
      'no event ids',
    );
    assert.deepEqual(blocks[0], { comment: 'ext/marker' });
    const messages = blocks.filter((b) => b.data !== undefined).map((b) => JSON.parse(b.data ?? ''));
    assert.deepEqual(
      messages.map((m) => m.method ?? 'final'),
      ['notifications/progress', 'final'],
      'no notifications/message without _meta logLevel',
    );
    assert.equal(messages.at(-1).result.resultType, 'complete');
  });

  it('sends log frames once the request carries a logLevel', async () => {
    const server = streamingServer();
    const meta = modernMeta({ 'io.modelcontextprotocol/logLevel': 'debug' });
    const res = await server.handle(
      modernPost(1, 'tools/call', { name: 'steps', arguments: {}, _meta: meta }),
    );
    const methods = parseSse(await res.text())
      .filter((b) => b.data !== undefined)
      .map((b) => JSON.parse(b.data ?? '').method);
    assert.ok(methods.includes('notifications/message'));
  });

  it('treats closing the stream as cancellation of the request', async () => {
    let reason: unknown;
    const aborted = new Promise<void>((resolve) => {
      const server = streamingServer((r) => {
        reason = r;
        resolve();
      });
      void server
        .handle(modernPost(1, 'tools/call', { name: 'steps', arguments: { hang: true } }))
        .then(async (res) => {
          const reader = res.body?.getReader();
          await reader?.read();
          await reader?.cancel();
        });
    });
    await aborted;
    assert.equal((reason as Error).name, 'RequestCancelledError');
  });

  it('answers a beforeStream refusal as plain JSON', async () => {
    const server = streamingServer();
    const res = await readJson(
      await server.handle(modernPost(1, 'tools/call', { name: 'steps', arguments: { refuse: true } })),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.error, { code: -32602, message: 'refused early' });
  });
});
