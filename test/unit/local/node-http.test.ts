/**
 * The node:http bridge: what the handler receives, what the client receives, incremental streaming,
 * disconnect propagation and failure hygiene. Real sockets on 127.0.0.1 (this module IS the socket layer).
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { McpInvocationContext } from '../../../lambda/mcp/types/index.js';
import { serveNode, type FetchHandler, type NodeServerHandle } from '../../../local/node-http.js';

/** A handler whose behaviour each test swaps in, so one server serves the whole file. */
let current: FetchHandler = () => Promise.resolve(new Response(null, { status: 204 }));
let server: NodeServerHandle;

before(async () => {
  server = await serveNode((request, ctx) => current(request, ctx));
});
after(async () => {
  await server.close();
});

/** Sends raw headers (duplicates included), which fetch() would merge before they reach the wire. */
function rawPost(path: string, headers: [string, string][], body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method: 'POST', headers: headers.flat() }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('serveNode', () => {
  it('hands the handler the method, path with query, every header value and the body', async () => {
    // Prepare
    let seen: { method: string; url: string; version: string | null; body: string } | undefined;
    current = async (request) => {
      seen = {
        method: request.method,
        url: new URL(request.url).pathname + new URL(request.url).search,
        version: request.headers.get('mcp-protocol-version'),
        body: await request.text(),
      };
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    };

    // Act
    const status = await rawPost(
      '/mcp?x=1',
      [
        ['Host', new URL(server.url).host],
        ['Content-Type', 'application/json'],
        ['MCP-Protocol-Version', '2026-07-28'],
        ['mcp-protocol-version', '2025-11-25'],
      ],
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    );

    // Assess
    assert.equal(status, 200);
    assert.deepEqual(seen, {
      method: 'POST',
      url: '/mcp?x=1',
      version: '2026-07-28, 2025-11-25',
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
  });

  it('writes status, headers and every Set-Cookie value the handler returns', async () => {
    current = () => {
      const headers = new Headers({ 'content-type': 'application/json', 'mcp-session-id': 'abc' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return Promise.resolve(new Response('{"ok":true}', { status: 201, headers }));
    };

    const response = await fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' });

    assert.equal(response.status, 201);
    assert.equal(response.headers.get('mcp-session-id'), 'abc');
    assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.deepEqual(await response.json(), { ok: true });
  });

  it('delivers each SSE chunk before the handler produces the next one', async () => {
    // Prepare: the second frame is only produced after the client has read the first, so a buffering
    // bridge would deadlock instead of passing.
    let releaseSecond!: () => void;
    const secondMayGo = new Promise<void>((resolve) => (releaseSecond = resolve));
    const encoder = new TextEncoder();
    current = () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode('id: 1\ndata: first\n\n'));
          await secondMayGo;
          controller.enqueue(encoder.encode('id: 2\ndata: second\n\n'));
          controller.close();
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    };

    // Act
    const response = await fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = decoder.decode((await reader.read()).value);
    releaseSecond();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += decoder.decode(chunk.value);

    // Assess
    assert.equal(first, 'id: 1\ndata: first\n\n');
    assert.equal(rest, 'id: 2\ndata: second\n\n');
  });

  it('fires ctx.signal and cancels the body when the client disconnects mid-stream', async () => {
    // Prepare
    let signalled!: () => void;
    const aborted = new Promise<void>((resolve) => (signalled = resolve));
    let cancelled!: () => void;
    const bodyCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    current = (_request, ctx: McpInvocationContext) => {
      ctx.signal?.addEventListener('abort', () => signalled(), { once: true });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(': open\n\n'));
        },
        cancel() {
          cancelled();
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    };
    const client = new AbortController();

    // Act
    const response = await fetch(`${server.url}/mcp`, { method: 'POST', body: '{}', signal: client.signal });
    await response.body!.getReader().read();
    client.abort();

    // Assess: both promises settle only if the bridge noticed the disconnect.
    await Promise.all([aborted, bodyCancelled]);
  });

  it('answers a generic JSON-RPC internal error, without exception text, when the handler throws', async () => {
    const logged: string[] = [];
    const quiet = await serveNode(() => Promise.reject(new Error('secret at /var/task/index.js:12')), {
      onError: (message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`),
    });
    try {
      const response = await fetch(`${quiet.url}/mcp`, { method: 'POST', body: '{}' });
      const text = await response.text();

      assert.equal(response.status, 500);
      assert.deepEqual(JSON.parse(text), {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32603, message: 'Internal error' },
      });
      assert.doesNotMatch(text, /secret|index\.js/);
      assert.match(logged.join('\n'), /secret/);
    } finally {
      await quiet.close();
    }
  });

  it('passes a bodyless GET through and ends a null-body response', async () => {
    let method = '';
    let hadBody = true;
    current = (request) => {
      method = request.method;
      hadBody = request.body !== null;
      return Promise.resolve(new Response(null, { status: 202 }));
    };

    const response = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream' } });

    assert.equal(response.status, 202);
    assert.equal(await response.text(), '');
    assert.equal(method, 'GET');
    assert.equal(hadBody, false);
  });
});
