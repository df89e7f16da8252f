/**
 * Test harness for the BOS platform: the real runtime, the real engine and real fixture sources with
 * tiny latencies, driven through `handle(new Request(...))` without sockets.
 */
import type { BosPlatform, Directory } from '../../../lambda/bos/index.js';
import { createBosPlatform, createDemoDirectory, createJwtVerifier } from '../../../lambda/bos/index.js';
import type { SourceAdapter } from '../../../lambda/federation/index.js';
import type { McpInvocationContext, McpServerOptions } from '../../../lambda/mcp/index.js';
import { silentLogger } from '../../../lambda/mcp/index.js';
import { createFixtureSource, DEMO_SOURCE_OPTIONS } from '../../../lambda/sources/index.js';
import type { FixtureSourceOptions } from '../../../lambda/sources/index.js';
import type { DevAuth } from '../../../local/dev-auth/index.js';
import { createDevAuth } from '../../../local/dev-auth/index.js';

export const ENDPOINT = 'https://bos.example.test/mcp/apps/bos/platform';
export const ISSUER = 'https://issuer.example.test';
export const FIXED_NOW = Date.parse('2026-10-08T12:00:00Z');

/** The demo sources with millisecond latencies; `acme-legacy` still hangs, with a short own timeout. */
export function fastDemoSources(overrides: Partial<Record<string, Partial<FixtureSourceOptions>>> = {}) {
  const adapters = DEMO_SOURCE_OPTIONS.map((options) =>
    createFixtureSource({
      ...options,
      latencyMs: Math.min(options.latencyMs ?? 0, 3),
      ...(options.timeoutMs !== undefined && { timeoutMs: 150 }),
      ...overrides[options.source_identity],
    }),
  );
  return new Map<string, SourceAdapter>(adapters.map((a) => [a.source.source_identity, a]));
}

export interface Harness {
  platform: BosPlatform;
  auth: DevAuth;
  /** Opens a session-ful MCP session for a token and returns a caller bound to it. */
  session(token: string): Promise<Session>;
}

export interface CallOptions {
  id?: string | number | null;
  /** The value placed at the opt-in path; `undefined` = no `_meta` at all. */
  optIn?: unknown;
  accept?: string;
  invocation?: McpInvocationContext;
}

export interface Session {
  sessionId: string;
  /** The JSON-RPC `initialize` response that opened the session. */
  initialized: { result: { capabilities: Record<string, Record<string, unknown>> } };
  call(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<Response>;
  rpc(method: string, params?: Record<string, unknown>, id?: number | string): Promise<Response>;
}

/** A platform over the demo directory and fast demo sources, with a dev issuer's inline JWKS. */
export async function createHarness(
  options: {
    sources?: Map<string, SourceAdapter>;
    /** @default the demo directory */
    directory?: Directory;
    deadlineReserveMs?: number;
    tasks?: McpServerOptions['tasks'];
  } = {},
): Promise<Harness> {
  const auth = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT });
  const platform = createBosPlatform({
    directory: options.directory ?? createDemoDirectory(),
    sources: options.sources ?? fastDemoSources(),
    verifier: createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks }),
    endpoint: ENDPOINT,
    ...(options.deadlineReserveMs !== undefined && { deadlineReserveMs: options.deadlineReserveMs }),
    logger: silentLogger,
    clock: () => FIXED_NOW,
    serverOptions: {
      name: 'bos-test',
      version: '0.0.0',
      keepaliveMs: 60_000,
      ...(options.tasks !== undefined && { tasks: options.tasks }),
    },
  });
  return { platform, auth, session: (token) => openSession(platform, token) };
}

function headers(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extra,
  };
}

async function openSession(platform: BosPlatform, token: string): Promise<Session> {
  const init = await platform.handle(
    new Request(ENDPOINT, {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    }),
  );
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || sessionId === null) throw new Error(`initialize failed: ${init.status}`);
  const initializedResponse = (await init.json()) as Session['initialized'];
  const sessionHeaders = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  const initialized = await platform.handle(
    new Request(ENDPOINT, {
      method: 'POST',
      headers: headers(token, sessionHeaders),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  await initialized.text();

  const post = (body: unknown, accept?: string, invocation?: McpInvocationContext) =>
    platform.handle(
      new Request(ENDPOINT, {
        method: 'POST',
        headers: headers(token, { ...sessionHeaders, ...(accept !== undefined && { accept }) }),
        body: JSON.stringify(body),
      }),
      invocation,
    );

  return {
    sessionId,
    initialized: initializedResponse,
    call: (name, args, options = {}) => {
      const params: Record<string, unknown> = { name, arguments: args };
      if ('optIn' in options) {
        params._meta = {
          'io.modelcontextprotocol/clientCapabilities': {
            experimental: { 'bos/source-results/v1': options.optIn },
          },
        };
      }
      const id = 'id' in options ? options.id : 'call-1';
      return post({ jsonrpc: '2.0', id, method: 'tools/call', params }, options.accept, options.invocation);
    },
    rpc: (method, params, id = 'rpc-1') => post({ jsonrpc: '2.0', id, method, ...(params && { params }) }),
  };
}
