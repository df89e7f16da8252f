/**
 * The client library resumes a broken stream through the whole local stack: a TCP proxy in front of the REST
 * front cuts the connection of a streamed `demo_events` call in the middle of an event, the function keeps
 * running (a disconnect is not a cancellation, and on AWS the function is not even told), and the client
 * reconnects with `Last-Event-ID`. Every progress notification arrives exactly once, then the final response.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpHttpClient } from '../../client/index.js';
import type { ResumeAttempt } from '../../client/index.js';
import { type LocalStack, startStack } from '../../local/stack.js';
import { javaSuite } from '../helpers/java.js';

const EVENTS = 10;

/**
 * Forwards connections to `port`. The first response that contains `cutAt` is cut halfway through it, however
 * TCP chunked it: the bytes before go through, then both sockets are destroyed (a dropped connection,
 * mid-event).
 */
async function cuttingProxy(
  port: number,
  cutAt: string,
): Promise<{ url: string; cuts: number; server: Server }> {
  const state = { url: '', cuts: 0, server: createServer() };
  const sockets = new Set<Socket>();
  state.server.on('connection', (client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    // TCP may split the marker across two chunks: the search runs over the end of the previous chunk too.
    let tail = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      const seen = Buffer.concat([tail, chunk]);
      const at = state.cuts === 0 ? seen.indexOf(cutAt) : -1;
      if (at < 0) {
        tail = seen.subarray(Math.max(0, seen.length - cutAt.length + 1));
        client.write(chunk);
        return;
      }
      state.cuts += 1;
      // Halfway through the marker, counted in this chunk (0 when that half already went through).
      const cut = Math.max(0, at - tail.length + Math.floor(cutAt.length / 2));
      client.write(chunk.subarray(0, cut), () => {
        client.destroy();
        upstream.destroy();
      });
    });
  });
  state.server.listen(0, '127.0.0.1');
  await once(state.server, 'listening');
  const address = state.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  state.url = `http://127.0.0.1:${address.port}`;
  return state;
}

describe('the client resumes a stream cut mid-event, through the local stack', javaSuite(180_000), () => {
  let stack: LocalStack;
  let proxy: Awaited<ReturnType<typeof cuttingProxy>>;

  before(async () => {
    stack = await startStack({
      handlerEntry: 'test/helpers/demo-entry.ts',
      bundleDir: '.local/test-bundles/client-resume',
      // Stream events are replayed from DynamoDB Local, as deployed.
      dynamodb: true,
      auth: true,
      poolSize: 2,
      timeoutSeconds: 60,
      onFunctionLog: () => undefined,
    });
    // The cut falls inside the fourth progress notification's frame.
    proxy = await cuttingProxy(stack.port, `event 4 of ${EVENTS}`);
  });
  after(async () => {
    proxy?.server.close();
    await stack?.close();
  });

  it('delivers every progress notification exactly once, in order, and ends with the final response', async () => {
    const client = new McpHttpClient({
      url: `${proxy.url}${new URL(stack.url).pathname}`,
      ...(stack.devTokens?.['dev-user'] === undefined ? {} : { token: stack.devTokens['dev-user'] }),
    });
    const progress: number[] = [];
    const attempts: ResumeAttempt[] = [];

    const outcome = await client.callTool(
      'demo_events',
      { count: EVENTS, delayMs: 150 },
      {
        progressToken: 'resume-test',
        onNotification: (method, params) => {
          if (method === 'notifications/progress') progress.push((params as { progress: number }).progress);
        },
        resume: { onResume: (attempt) => attempts.push(attempt) },
      },
    );
    await client.close();
    // Said with every assertion below, so a failure shows what the client saw.
    const seen = JSON.stringify({
      progress,
      attempts,
      cuts: proxy.cuts,
      confirmed: outcome.confirmed,
      ...(outcome.confirmed ? {} : { cause: outcome.cause, detail: outcome.detail }),
      violations: outcome.violations,
    });

    assert.equal(proxy.cuts, 1, seen);
    assert.equal(attempts.length, 1, seen);
    assert.equal(outcome.diagnostics.resumes, 1, seen);
    assert.deepEqual(
      progress,
      Array.from({ length: EVENTS }, (_, index) => index + 1),
      seen,
    );
    assert.equal(outcome.confirmed, true, seen);
    assert.deepEqual(
      outcome.confirmed ? outcome.result?.content : undefined,
      [{ type: 'text', text: `sent ${EVENTS} events` }],
      seen,
    );
  });
});
