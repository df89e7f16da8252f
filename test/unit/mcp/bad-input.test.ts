/**
 * The bad-input table: every row is one way a request can be wrong, with the exact HTTP status and
 * JSON-RPC code it must get, and a body free of exception text, stack traces and secrets.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpServer } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, manualClock, post, postHeaders, rpc } from './helpers.js';

const secret = 'AKIAFAKESECRET/password=hunter2';

interface Row {
  name: string;
  status: number;
  /** JSON-RPC error code, or undefined where a fixture pins a non-JSON-RPC body. */
  code: number | undefined;
  run: () => Promise<Response>;
}

async function withEchoTools(
  overrides: Parameters<typeof makeServer>[0] = {},
): Promise<{ server: McpServer; session: string }> {
  const server = makeServer({ toolTimeoutMs: 50, ...overrides });
  server.registerTool(
    {
      name: 'echo',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
    (args) =>
      Promise.resolve({
        content: [{ type: 'text', text: typeof args.message === 'string' ? args.message : '' }],
      }),
  );
  server.registerTool({ name: 'explode', inputSchema: { type: 'object' } }, () => {
    throw new Error(`database login failed for ${secret}`);
  });
  server.registerTool({ name: 'hang', inputSchema: { type: 'object' } }, () => new Promise(() => undefined));
  return { server, session: await initialize(server) };
}

function tenMebibyteBody(pulled: { bytes: number }): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  return new ReadableStream({
    pull(controller) {
      if (pulled.bytes >= 10 * 1024 * 1024) return controller.close();
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

const pulled = { bytes: 0 };

const rows: Row[] = [
  {
    name: 'a body that is not JSON',
    status: 200,
    code: -32700,
    run: async () => {
      const { server } = await withEchoTools();
      return server.handle(post('{"jsonrpc":"2.0",'));
    },
  },
  {
    name: 'a JSON array on a 2025-11-25 session',
    status: 200,
    code: -32700,
    run: async () => {
      const { server, session } = await withEchoTools();
      return server.handle(post([rpc(1, 'ping')], inSession(session)));
    },
  },
  {
    name: 'a missing Content-Type',
    status: 400,
    code: -32600,
    run: async () => {
      const { server } = await withEchoTools();
      const request = new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { accept: postHeaders.accept },
        body: new Blob([JSON.stringify(rpc(1, 'ping'))]).stream(),
        duplex: 'half',
      } as RequestInit);
      return server.handle(request);
    },
  },
  {
    name: 'a text/plain Content-Type',
    status: 400,
    code: -32600,
    run: async () =>
      (await withEchoTools()).server.handle(post(rpc(1, 'ping'), { 'content-type': 'text/plain' })),
  },
  {
    name: 'an application/jsonx Content-Type',
    status: 400,
    code: -32600,
    run: async () =>
      (await withEchoTools()).server.handle(post(rpc(1, 'ping'), { 'content-type': 'application/jsonx' })),
  },
  {
    name: 'a JSON-only Accept',
    status: 400,
    code: -32600,
    run: async () =>
      (await withEchoTools()).server.handle(post(rpc(1, 'ping'), { accept: 'application/json' })),
  },
  {
    name: 'a foreign Origin',
    status: 403,
    code: -32600,
    run: async () =>
      (await withEchoTools()).server.handle(post(rpc(1, 'ping'), { origin: 'https://evil.example' })),
  },
  {
    name: 'a missing session',
    status: 400,
    code: -32600,
    run: async () => (await withEchoTools()).server.handle(post(rpc(1, 'ping'))),
  },
  {
    name: 'an expired session',
    status: 404,
    code: undefined,
    run: async () => {
      const clock = manualClock();
      const { server, session } = await withEchoTools({ clock: clock.now, sessionTtlMinutes: 60 });
      clock.advance(60 * 60_000 + 1);
      return server.handle(post(rpc(1, 'ping'), inSession(session)));
    },
  },
  {
    name: 'an unknown method',
    status: 200,
    code: -32601,
    run: async () => {
      const { server, session } = await withEchoTools();
      return server.handle(post(rpc(1, 'no/such/method'), inSession(session)));
    },
  },
  {
    name: 'an unknown tool',
    status: 200,
    code: -32602,
    run: async () => {
      const { server, session } = await withEchoTools();
      return server.handle(
        post(rpc(1, 'tools/call', { name: 'missing', arguments: {} }), inSession(session)),
      );
    },
  },
  {
    name: 'schema-invalid arguments',
    status: 200,
    code: -32602,
    run: async () => {
      const { server, session } = await withEchoTools();
      return server.handle(
        post(rpc(1, 'tools/call', { name: 'echo', arguments: { message: 42 } }), inSession(session)),
      );
    },
  },
  {
    name: 'a tool that throws with a secret-looking message',
    status: 200,
    code: -32603,
    run: async () => {
      const { server, session } = await withEchoTools();
      return server.handle(
        post(rpc(1, 'tools/call', { name: 'explode', arguments: {} }), inSession(session)),
      );
    },
  },
  {
    name: 'a tool that hangs past its timeout',
    status: 200,
    code: -32001,
    run: async () => {
      const { server, session } = await withEchoTools();
      return server.handle(post(rpc(1, 'tools/call', { name: 'hang', arguments: {} }), inSession(session)));
    },
  },
  {
    name: 'a 10 MiB body',
    status: 413,
    code: -32600,
    run: async () => {
      const { server, session } = await withEchoTools();
      const request = new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { ...postHeaders, ...inSession(session) },
        body: tenMebibyteBody(pulled),
        duplex: 'half',
      } as RequestInit);
      return server.handle(request);
    },
  },
];

describe('bad input', () => {
  for (const row of rows) {
    it(`answers ${row.name} with HTTP ${row.status}${row.code === undefined ? '' : ` and code ${row.code}`}`, async () => {
      const res = await row.run();
      const text = await res.text();
      assert.equal(res.status, row.status, text);
      const body = JSON.parse(text) as { error?: { code?: number; message?: string } | string };
      if (row.code === undefined) assert.equal(typeof body.error, 'string');
      else assert.equal(typeof body.error === 'object' ? body.error.code : undefined, row.code);
      // Exception class names, stack frames, the thrown message and the secret must all stay in the server.
      assert.doesNotMatch(text, /hunter2|AKIA|database|\bat \S+:\d+:\d+|\b[A-Z][a-z]*Error\b|"stack"/);
    });
  }

  it('stops reading a 10 MiB body soon after the 4 MiB limit instead of buffering it', () => {
    assert.ok(pulled.bytes > 0, 'the 10 MiB row ran first');
    assert.ok(pulled.bytes <= 4 * 1024 * 1024 + 2 * 64 * 1024, `read ${pulled.bytes} bytes`);
  });
});
