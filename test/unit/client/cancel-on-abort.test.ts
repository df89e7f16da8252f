/**
 * Interrupting a call in the client library tells the server: `notifications/cancelled` for the call's id
 * follows the abort, because on AWS a dropped connection alone does not stop the server's work. The
 * client talks to the real runtime in-process (its `fetch` is `McpServer.handle`); the tool keeps running
 * after a disconnect (a resumable session-ful stream), so only the notification can stop it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpHttpClient, runCli } from '../../../client/index.js';
import { McpServer, silentLogger } from '../../../lambda/mcp/index.js';

interface Harness {
  client: McpHttpClient;
  fetch: typeof fetch;
  posted: Record<string, unknown>[];
  started: Promise<void>;
  aborted: Promise<unknown>;
}

function harness(protocol: 'sessionful' | 'stateless'): Harness {
  const server = new McpServer({
    name: 't',
    version: '1',
    logger: silentLogger,
    keepaliveMs: 0,
    allowedOrigins: [],
  });
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let markAborted: (reason: unknown) => void = () => undefined;
  const aborted = new Promise<unknown>((resolve) => (markAborted = resolve));
  server.registerStreamingTool({ name: 'wait', inputSchema: { type: 'object' } }, (_args, ctx) => {
    markStarted();
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        markAborted(ctx.signal.reason);
        reject(ctx.signal.reason as Error);
      });
    });
  });
  const posted: Record<string, unknown>[] = [];
  const principal = { subject: 'alice', scopes: [] };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.method === 'POST') posted.push((await request.clone().json()) as Record<string, unknown>);
    const response = await server.handle(request, { principal });
    if (response.body === null || init?.signal == null) return response;
    // As a real fetch does: an abort ends the body for the reader and cancels it towards the server.
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    response.body.pipeTo(writable, { signal: init.signal }).catch(() => undefined);
    return new Response(readable, { status: response.status, headers: response.headers });
  };
  const client = new McpHttpClient({ url: 'http://localhost/mcp', protocol, fetch });
  return { client, fetch, posted, started, aborted };
}

describe('McpHttpClient.callTool with an aborted signal', () => {
  for (const protocol of ['sessionful', 'stateless'] as const) {
    it(`${protocol}: sends notifications/cancelled for the call's id, and the server's work stops`, async () => {
      const { client, posted, started, aborted } = harness(protocol);
      const interrupt = new AbortController();
      const call = client.callTool('wait', {}, { id: 'long-1', signal: interrupt.signal });
      await started;
      interrupt.abort();
      const outcome = await call;
      assert.ok((await aborted) instanceof Error);
      const cancels = posted.filter((m) => m.method === 'notifications/cancelled');
      assert.deepEqual(
        cancels.map((m) => (m.params as { requestId: unknown }).requestId),
        ['long-1'],
      );
      // Whatever the stream showed before it ended, the call has no successful result.
      assert.ok(!outcome.confirmed || outcome.error?.code === -32800);
    });
  }

  it('CLI: an interrupt sends notifications/cancelled, stops the work and exits 4 (no confirmed result)', async () => {
    const { fetch, posted, started, aborted } = harness('sessionful');
    const interrupt = new AbortController();
    const run = runCli(['--url', 'http://localhost/mcp', 'call', 'wait', '{}'], {
      stdout: () => undefined,
      stderr: () => undefined,
      fetch,
      signal: interrupt.signal,
    });
    await started;
    interrupt.abort();
    assert.equal(await run, 4);
    assert.ok((await aborted) instanceof Error);
    assert.equal(posted.filter((m) => m.method === 'notifications/cancelled').length, 1);
  });

  it('sends nothing with cancelOnAbort: false (a bare disconnect)', async () => {
    const { client, posted, started } = harness('stateless');
    const interrupt = new AbortController();
    const call = client.callTool('wait', {}, { id: 2, signal: interrupt.signal, cancelOnAbort: false });
    await started;
    interrupt.abort();
    await call.catch(() => undefined);
    assert.equal(posted.filter((m) => m.method === 'notifications/cancelled').length, 0);
  });
});
