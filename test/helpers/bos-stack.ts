/**
 * The BOS platform entry on the full local stack (RIC + REST v1 front + DynamoDB Local + local issuer) for
 * the `bos-*` integration suites: start/stop, the function's structured log lines, raw JSON-RPC posts, and
 * opt-in helpers. One stack per test file: startup (bundle, JVM, runtime processes) dominates the run.
 */
import { startStack } from '../../local/stack.js';
import type { LocalStack, StackOptions } from '../../local/stack.js';
import type { CompletionRecord } from '../../local/rest-front/index.js';

/** The opt-in path of contract §2. */
export const OPT_IN_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const EXTENSION = 'bos/source-results/v1';
export const SSE_ACCEPT = 'application/json, text/event-stream';

/** `_meta` carrying `value` at the contract's opt-in path (`{}` is the real opt-in). */
export function optInMeta(value: unknown = {}): Record<string, unknown> {
  return { [OPT_IN_KEY]: { experimental: { [EXTENSION]: value } } };
}

/** One JSON log line the function printed, with the time the test process received it. */
export interface FunctionLogLine {
  readonly receivedAt: number;
  readonly fields: Record<string, unknown>;
}

/** A running stack plus what its function logged. */
export interface BosStack {
  readonly stack: LocalStack;
  readonly url: string;
  readonly logs: FunctionLogLine[];
  /** Every line the function printed (stdout and stderr, JSON or not), in arrival order. */
  readonly lines: string[];
  /** The completion invocations the front sent after streamed responses, in order. */
  readonly completions: CompletionRecord[];
  /** The bearer token of a demo principal (`dev-user`, `outsider`). */
  token(user: 'dev-user' | 'outsider'): string;
  close(): Promise<void>;
}

/** Options of {@link startBosStack}. */
export interface BosStackOptions {
  /** Bundle folder name under `.local/test-bundles/`. */
  name: string;
  /** Start the local record providers (SCIM server, slapd) and add their sources, as `npm start` does. */
  providers?: boolean;
  /** Extra function environment (e.g. the local-only fixture knobs, docs/bos.md). */
  env?: Readonly<Record<string, string>>;
  timeoutSeconds?: number;
  poolSize?: number;
  /** The function's concurrency. @default the stack's */
  concurrency?: number;
  /** Front behaviours (client-loss mode, limits); the stack's defaults are AWS's. */
  front?: Pick<StackOptions, 'onClientLoss' | 'shaping' | 'maxResponseBytes' | 'maxEventBytes'>;
}

/** Starts the platform entry (`lambda/handlers/platform.ts`) with DynamoDB Local and the local issuer. */
export async function startBosStack(options: BosStackOptions): Promise<BosStack> {
  const logs: FunctionLogLine[] = [];
  const lines: string[] = [];
  const completions: CompletionRecord[] = [];
  const stackOptions: StackOptions = {
    ...options.front,
    onCompletion: (record) => completions.push(record),
    bundleDir: `.local/test-bundles/${options.name}`,
    poolSize: options.poolSize ?? 2,
    timeoutSeconds: options.timeoutSeconds ?? 60,
    env: { ...options.env },
    ...(options.providers === true ? { providers: true } : {}),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    onFunctionLog: ({ line }) => {
      lines.push(line);
      if (!line.startsWith('{')) return;
      try {
        logs.push({ receivedAt: Date.now(), fields: JSON.parse(line) as Record<string, unknown> });
      } catch {
        // Not one of our JSON lines (the runtime client prints its own); ignored.
      }
    },
  };
  const stack = await startStack(stackOptions);
  return {
    stack,
    url: stack.url,
    logs,
    lines,
    completions,
    token(user) {
      const token = stack.devTokens?.[user];
      if (token === undefined) throw new Error(`the stack minted no token for ${user}`);
      return token;
    },
    close: () => stack.close(),
  };
}

/** A JSON-RPC POST as a 2025-era client sends it (optionally in a session). */
export interface RawPost {
  token?: string;
  sessionId?: string;
  accept?: string;
  headers?: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

/** Posts one JSON-RPC message to the endpoint. */
export function post(url: string, request: RawPost): Promise<Response> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: request.accept ?? SSE_ACCEPT,
    ...(request.token === undefined ? {} : { Authorization: `Bearer ${request.token}` }),
    ...(request.sessionId === undefined
      ? {}
      : { 'Mcp-Session-Id': request.sessionId, 'MCP-Protocol-Version': '2025-11-25' }),
    ...request.headers,
  };
  return fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(request.body),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
}

/** A `tools/call` body; `meta` becomes `params._meta` when given. */
export function toolCall(
  id: string | number | null,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
  };
}

/** Opens a 2025-11-25 session (initialize + initialized); returns the session id and the initialize result. */
export async function openSession(
  url: string,
  token: string,
  capabilities: Record<string, unknown> = {},
): Promise<{ sessionId: string; result: Record<string, unknown> }> {
  const init = await post(url, {
    token,
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'bos-it', version: '1' } },
    },
  });
  const sessionId = init.headers.get('mcp-session-id');
  const message = (await init.json()) as { result?: Record<string, unknown> };
  if (init.status !== 200 || sessionId === null || message.result === undefined)
    throw new Error(`initialize failed with HTTP ${init.status}`);
  const ack = await post(url, {
    token,
    sessionId,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  await ack.body?.cancel();
  return { sessionId, result: message.result };
}

/** The stateless protocol version (MCP 2026-07-28). */
export const STATELESS_VERSION = '2026-07-28';

/**
 * `params._meta` every 2026-07-28 request needs (protocol version, client capabilities, client info);
 * with `optIn`, the capabilities carry the contract §2 opt-in object.
 */
export function statelessMeta(optIn = false): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
    [OPT_IN_KEY]: optIn ? { experimental: { [EXTENSION]: {} } } : {},
    'io.modelcontextprotocol/clientInfo': { name: 'bos-it', version: '1' },
  };
}

/**
 * Posts one 2026-07-28 request (no session): `MCP-Protocol-Version`, `Mcp-Method` from the body's method
 * and, when the params name something, `Mcp-Name` (surface: "Stateless clients must send the exact
 * mcp-method routing value and, for tools/call, the exact mcp-name value"). The body's `_meta` is the
 * caller's (see {@link statelessMeta}).
 */
export function postStateless(url: string, request: Omit<RawPost, 'sessionId'>): Promise<Response> {
  const body = request.body as { method?: unknown; params?: { name?: unknown } };
  const name = body.params?.name;
  return post(url, {
    ...request,
    headers: {
      'MCP-Protocol-Version': STATELESS_VERSION,
      'Mcp-Method': String(body.method),
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      ...request.headers,
    },
  });
}
