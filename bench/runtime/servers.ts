/**
 * The two servers the runtime benchmark compares, each answering `tools/call` of an `echo` tool:
 * - `ours`: our `McpServer` on `serveNode`;
 * - `sdk`: `@modelcontextprotocol/sdk@1.32.2` `StreamableHTTPServerTransport` on plain `node:http`, in the
 *   stateless pattern its documentation prescribes (`sessionIdGenerator: undefined`), with
 *   `enableJsonResponse: true` and a fresh SDK `Server` + transport per request, closed when the response
 *   closes — a single shared transport would mix JSON-RPC ids of concurrent clients. The tool is served
 *   by the SDK's low-level `Server` (`setRequestHandler`), its lightest path: no zod argument parsing.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SdkServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '../../lambda/mcp/index.js';
import { serveNode } from '../../local/node-http.js';

export interface BenchServer {
  url: string;
  close(): Promise<void>;
}

const ECHO_TOOL = {
  name: 'echo',
  description: 'Echoes the message',
  inputSchema: {
    type: 'object' as const,
    properties: { message: { type: 'string' } },
    required: ['message'],
  },
};

/** Our runtime with one `echo` tool. */
export async function startOurs(): Promise<BenchServer> {
  const app = new McpServer({ name: 'bench-ours', version: '1.0.0' });
  app.registerTool(ECHO_TOOL, (args) =>
    Promise.resolve({
      content: [{ type: 'text', text: typeof args.message === 'string' ? args.message : '' }],
    }),
  );
  const front = await serveNode((request, ctx) => app.handle(request, ctx));
  return { url: `${front.url}/mcp`, close: () => front.close() };
}

function sdkServer(): SdkServer {
  const server = new SdkServer({ name: 'bench-sdk', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.message) }],
  }));
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

/** The SDK's stateless Streamable HTTP server with one `echo` tool. */
export async function startSdk(): Promise<BenchServer> {
  const http = createServer((req, res) => {
    void (async () => {
      const server = sdkServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(req, res, req.method === 'POST' ? await readJson(req) : undefined);
      } catch {
        if (!res.headersSent) res.writeHead(500).end();
      }
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
