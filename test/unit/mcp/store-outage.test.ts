/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped wire JSON */
/**
 * One answer for a store outage in the runtime: any store a call needs (sessions, streams, request state, or
 * an application store a tool reads) that cannot answer before the response starts gives HTTP 503 with
 * `Retry-After: 1` and -32603 "<store> store unavailable"; once an SSE stream has started, its final frame
 * carries that error instead.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryStreamStore, StoreUnavailableError } from '../../../lambda/mcp/index.js';
import type { McpServer } from '../../../lambda/mcp/index.js';
import { initialize, inSession, makeServer, parseSse, post, readJson, rpc } from './helpers.js';
import { modernPost } from './stateless/helpers.js';

async function assertOutage(res: Response, store: string): Promise<void> {
  const { status, body, text } = await readJson(res);
  assert.equal(status, 503, text);
  assert.equal(res.headers.get('retry-after'), '1');
  assert.deepEqual(body.error, { code: -32603, message: `${store} store unavailable` });
}

function serverWithOutages(options: Parameters<typeof makeServer>[0] = {}): McpServer {
  const server = makeServer(options);
  server.registerTool({ name: 'lookup', inputSchema: { type: 'object' } }, () =>
    Promise.reject(new StoreUnavailableError('directory', 'ECONNREFUSED 127.0.0.1:8000')),
  );
  server.registerStreamingTool({ name: 'late', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    ctx.progress(1, 2, 'started');
    await ctx.ready?.();
    throw new StoreUnavailableError('directory', 'socket hang up');
  });
  server.registerStreamingTool({ name: 'stream', inputSchema: { type: 'object' } }, () =>
    Promise.resolve({ content: [] }),
  );
  return server;
}

describe('store outages get one answer', () => {
  it('a tool whose store is down answers 503 in the session-ful shape', async () => {
    const server = serverWithOutages();
    const session = await initialize(server);
    const res = await server.handle(
      post(rpc(1, 'tools/call', { name: 'lookup', arguments: {} }), inSession(session)),
    );
    await assertOutage(res, 'directory');
  });

  it('a tool whose store is down answers 503 in the stateless shape', async () => {
    const server = serverWithOutages();
    await assertOutage(
      await server.handle(modernPost(1, 'tools/call', { name: 'lookup', arguments: {} })),
      'directory',
    );
  });

  it('a stream store that cannot create the stream answers 503 before any SSE byte', async () => {
    const streams = new InMemoryStreamStore();
    streams.createStream = () => Promise.reject(new StoreUnavailableError('stream'));
    const server = serverWithOutages({ streamStore: streams });
    const session = await initialize(server);
    const res = await server.handle(
      post(rpc(1, 'tools/call', { name: 'stream', arguments: {} }), inSession(session)),
    );
    await assertOutage(res, 'stream');
  });

  it('a request-state store that cannot redeem a state answers 503', async () => {
    const server = serverWithOutages({
      requestStateStore: {
        put: () => Promise.reject(new StoreUnavailableError('request-state')),
        take: () => Promise.reject(new StoreUnavailableError('request-state')),
      },
    });
    const res = await server.handle(
      modernPost(1, 'tools/call', { name: 'lookup', arguments: {}, requestState: 'opaque' }),
    );
    await assertOutage(res, 'request-state');
  });

  it('after the stream started, the final frame reports the outage', async () => {
    const server = serverWithOutages();
    const session = await initialize(server);
    const res = await server.handle(
      post(
        rpc(7, 'tools/call', { name: 'late', arguments: {}, _meta: { progressToken: 'p' } }),
        inSession(session),
      ),
    );
    assert.equal(res.status, 200);
    const frames = parseSse(await res.text()).filter(
      (block) => block.data !== undefined && block.data !== '',
    );
    const last = JSON.parse(frames.at(-1)?.data ?? '{}');
    assert.deepEqual(last, {
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'directory store unavailable' },
    });
  });
});
