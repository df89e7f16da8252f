/**
 * A tiny BOS-like MCP endpoint on 127.0.0.1 (port 0) for client tests: it records every request and
 * answers `initialize`, `server/discover`, `tools/list` and `tools/call` (streaming the contract
 * example frames in awkward chunks when the call opts in). Lives beside the client tests only.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTEXT, CONTRACT_MESSAGES, DEMO_RECORD, frame, sourceFrame } from './contract-example.js';

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

/** Knobs of a fake platform. */
export interface FakePlatformOptions {
  /** Awaited after the first page is written and before the rest of the stream. */
  beforeRest?: () => Promise<void>;
  /** End the stream before the final frame (EOF without a confirmed result). */
  dropFinal?: boolean;
  /** Session id minted by initialize. @default 'sess-1' */
  sessionId?: string;
}

export interface FakePlatform {
  url: string;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const meta = (body: Record<string, unknown> | undefined): Record<string, unknown> =>
  ((body?.params as Record<string, unknown> | undefined)?._meta as Record<string, unknown> | undefined) ?? {};

/** True when the call carries the request-local object opt-in and accepts an event stream. */
export function optedIn(request: RecordedRequest): boolean {
  const caps = meta(request.body)['io.modelcontextprotocol/clientCapabilities'] as
    { experimental?: Record<string, unknown> } | undefined;
  const optIn = caps?.experimental?.['bos/source-results/v1'];
  const accept = String(request.headers.accept ?? '');
  return typeof optIn === 'object' && optIn !== null && accept.includes('text/event-stream');
}

/** The contract example stream, re-addressed to `id`, as SSE text pieces written one by one. */
function contractPieces(id: unknown, stateless: boolean): string[] {
  const [, complete, error, final] = CONTRACT_MESSAGES;
  const readdress = (m: unknown): unknown =>
    JSON.parse(JSON.stringify(m).replaceAll('"search-1"', JSON.stringify(id)));
  const finalMessage = readdress(final) as { result: Record<string, unknown> };
  if (stateless) finalMessage.result.resultType = 'complete';
  const firstPage = frame(sourceFrame({ requestId: id, records: [PROVISIONAL_RECORD], context: CONTEXT }));
  const rest = `: keepalive\n\n${frame(readdress(complete))}${frame(readdress(error))}${frame(finalMessage)}`;
  return ['id: prime\ndata:\n\n: bos/source-results/v1\n\n', firstPage, rest];
}

/** The provisional record differs from the final one, so tests can tell which one they got. */
export const PROVISIONAL_RECORD = { ...DEMO_RECORD, display_name: 'Exämple Pérson (provisional)' };

async function writeStream(
  res: ServerResponse,
  pieces: string[],
  options: FakePlatformOptions,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  const [head, page, rest] = pieces as [string, string, string];
  const pageBytes = Buffer.from(page);
  // Split inside the two-byte "ä" and inside the blank-line separator that ends the frame.
  const insideChar = Buffer.from(page.slice(0, page.indexOf('ä'))).length + 1;
  const cuts = [0, insideChar, pageBytes.length - 1, pageBytes.length];
  res.write(head);
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    await tick();
    res.write(pageBytes.subarray(cuts[i], cuts[i + 1]));
  }
  await tick();
  await options.beforeRest?.();
  const bytes = Buffer.from(
    options.dropFinal === true ? rest.slice(0, rest.lastIndexOf('event: message')) : rest,
  );
  // Odd-sized chunks so frame boundaries never line up with network writes.
  for (let i = 0; i < bytes.length; i += 37) {
    res.write(bytes.subarray(i, i + 37));
    await tick();
  }
  res.end();
}

/** Starts the fake platform; call `close()` when done. */
export async function startFakePlatform(options: FakePlatformOptions = {}): Promise<FakePlatform> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
      const request: RecordedRequest = { method: req.method ?? '', headers: req.headers, body };
      requests.push(request);
      void answer(request, res, options).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp/apps/bos/platform`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  request: RecordedRequest,
  res: ServerResponse,
  options: FakePlatformOptions,
): Promise<void> {
  if (request.method === 'DELETE') {
    res.writeHead(204).end();
    return;
  }
  const body = request.body ?? {};
  const stateless = request.headers['mcp-protocol-version'] === '2026-07-28';
  const json = (result: Record<string, unknown>, headers: Record<string, string> = {}): void => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
  };
  const capabilities = {
    tools: {},
    experimental: {
      'bos/source-results/v1': {
        pageSize: 100,
        maxConcurrentSources: 8,
        contractUri: 'https://dfsm.ai/apps/bos/source-results-v1.html',
      },
    },
  };
  switch (body.method) {
    case 'initialize':
      return json(
        { protocolVersion: '2025-11-25', capabilities, serverInfo: { name: 'fake-bos', version: '0' } },
        { 'mcp-session-id': options.sessionId ?? 'sess-1' },
      );
    case 'notifications/initialized':
      res.writeHead(202).end();
      return;
    case 'server/discover':
      return json({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities,
        ttlMs: 0,
        cacheScope: 'private',
      });
    case 'tools/list':
      return json({
        tools: [{ name: 'bos_execute', description: 'Run an operation', inputSchema: { type: 'object' } }],
      });
    case 'tools/call':
      if (optedIn(request)) return writeStream(res, contractPieces(body.id, stateless), options);
      return json(JSON.parse(JSON.stringify(CONTRACT_MESSAGES[3].result)) as Record<string, unknown>);
    default:
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } }),
      );
  }
}
