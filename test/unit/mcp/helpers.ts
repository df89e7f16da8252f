/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- response bodies are untyped wire JSON; the assertions check their shape */
/** Request factories and readers shared by the MCP runtime tests (no sockets: Request in, Response out). */
import assert from 'node:assert/strict';
import { McpServer, silentLogger } from '../../../lambda/mcp/index.js';
import type { McpInvocationContext, McpServerOptions } from '../../../lambda/mcp/index.js';
import { parseSseBody } from '../../helpers/sse.js';

export const postHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A server with test defaults (silent logger) and overrides. */
export function makeServer(overrides: Partial<McpServerOptions> = {}): McpServer {
  return new McpServer({ name: 'test-server', version: '1.0.0', logger: silentLogger, ...overrides });
}

/** A POST to /mcp; objects are JSON-encoded, strings sent verbatim. */
export function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { ...postHeaders, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function rpc(
  id: string | number,
  method: string,
  params?: Record<string, unknown>,
): Record<string, unknown> {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

/** Runs `initialize` and returns the new session id. */
export async function initialize(
  server: McpServer,
  params: Record<string, unknown> = { protocolVersion: '2025-11-25' },
  ctx?: McpInvocationContext,
): Promise<string> {
  const res = await server.handle(post(rpc('init', 'initialize', params)), ctx);
  assert.equal(res.status, 200);
  const sessionId = res.headers.get('mcp-session-id');
  assert.ok(sessionId);
  await res.body?.cancel();
  return sessionId;
}

/** Headers of a request inside a session. */
export function inSession(sessionId: string, version = '2025-11-25'): Record<string, string> {
  return { 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
}

/** Status plus parsed JSON body (undefined when empty). */
export async function readJson(res: Response): Promise<{ status: number; body: any; text: string }> {
  const text = await res.text();
  return { status: res.status, text, body: text === '' ? undefined : JSON.parse(text) };
}

/** One parsed SSE block: its fields, or a comment. */
export interface SseBlock {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** Splits an SSE body into blocks: each event, and each comment line as a block of its own. */
export function parseSse(text: string): SseBlock[] {
  return parseSseBody(text).items.map((item): SseBlock => {
    if (item.kind === 'comment') return { comment: item.text };
    const { id, event, data, retry } = item;
    return {
      ...(id === undefined ? {} : { id }),
      ...(event === undefined ? {} : { event }),
      ...(retry === undefined ? {} : { retry: String(retry) }),
      data,
    };
  });
}

/** A clock tests move by hand. */
export function manualClock(start = 1_800_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let current = start;
  return { now: () => current, advance: (ms) => (current += ms) };
}
