/**
 * A small MCP Streamable HTTP client for both protocol shapes on one endpoint: session-ful 2025-era
 * (`initialize` → `Mcp-Session-Id` → `notifications/initialized`, DELETE on close) and stateless
 * 2026-07-28 (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, per-request `_meta`).
 * Tool calls go through the `bos/source-results/v1` consumer, so streamed and JSON answers read alike.
 */
import { McpClientError, McpProtocolError, McpRpcError } from './errors.js';
import {
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  SESSIONFUL_PROTOCOL_VERSION,
  SOURCE_RESULTS_EXTENSION,
  STATELESS_PROTOCOL_VERSION,
  encodeMcpHeaderValue,
  mcpNameOf,
  withSourceResultsOptIn,
} from './mcp-headers.js';
import type { ResumeOptions } from './resume.js';
import { consumeSourceResults } from './source-results.js';
import type { RequestId, SourceResultsHandlers, SourceResultsOutcome } from './source-results-types.js';

/** Options of {@link McpHttpClient}. */
export interface McpHttpClientOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp/apps/bos/platform`. */
  url: string | URL;
  /** @default 'sessionful' */
  protocol?: 'sessionful' | 'stateless';
  /** Bearer token sent as `Authorization` on every request. */
  token?: string;
  /** @default { name: 'bos-mcp-client', version: '0.1.0' } */
  clientInfo?: { name: string; version: string };
  /** Version requested in `initialize` (session-ful only). @default '2025-11-25' */
  protocolVersion?: string;
  /** Injected fetch (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Options of {@link McpHttpClient.callTool}. */
export interface CallToolOptions extends SourceResultsHandlers {
  /** Opt in to `bos/source-results/v1` for this invocation only (contract §1: no stored preference). */
  stream?: boolean;
  /** JSON-RPC id. @default the next integer */
  id?: RequestId;
  /**
   * Ends the call from the client's side. The client then also sends `notifications/cancelled` for the
   * call's id: on AWS a dropped connection does not stop the server's work (docs/client.md "Cancelling").
   */
  signal?: AbortSignal;
  /** Send `notifications/cancelled` when `signal` aborts. @default true */
  cancelOnAbort?: boolean;
  onComment?: (comment: string) => void;
  /** Sent as `_meta.progressToken`: asks the tool for `notifications/progress` (see `onNotification`). */
  progressToken?: string | number;
  /**
   * Resuming a stream that breaks before its final response: a GET with `Last-Event-ID` after the last event
   * received, retried with a growing pause (docs/client.md "Resuming a broken stream"). Session-ful shape
   * only; streams without event ids (`bos/source-results/v1`) cannot be resumed. `false` turns it off.
   * @default {} (on: 3 attempts in a row, first after the server's `retry:` or 500 ms, doubling up to 5 s)
   */
  resume?: Omit<ResumeOptions, 'reconnect' | 'signal'> | false;
}

/** The advertised streaming limits (contract §1). */
export interface SourceResultsCapability {
  pageSize?: number;
  maxConcurrentSources?: number;
  contractUri?: string;
}

/** What discovery (initialize result or `server/discover`) told us. */
export interface DiscoveryInfo {
  protocol: 'sessionful' | 'stateless';
  /** Negotiated (session-ful) or supported (stateless) protocol versions. */
  protocolVersions: string[];
  capabilities: Record<string, unknown>;
  serverInfo?: Record<string, unknown>;
  instructions?: string;
  /** `capabilities.experimental["bos/source-results/v1"]`, when advertised. */
  sourceResults?: SourceResultsCapability;
  raw: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** MCP HTTP client; one instance per connection (and per session in the session-ful shape). */
export class McpHttpClient {
  readonly protocol: 'sessionful' | 'stateless';
  readonly #options: McpHttpClientOptions;
  readonly #fetch: typeof fetch;
  #nextId = 1;
  #sessionId: string | undefined;
  #negotiatedVersion: string | undefined;
  #initializeResult: Record<string, unknown> | undefined;

  constructor(options: McpHttpClientOptions) {
    this.#options = options;
    this.protocol = options.protocol ?? 'sessionful';
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /** The session id minted by `initialize` (session-ful only). */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** Session-ful: runs the handshake once. Stateless: nothing to do (no handshake exists). */
  async connect(): Promise<void> {
    if (this.protocol === 'stateless' || this.#initializeResult !== undefined) return;
    const id = this.#allocateId();
    const response = await this.#post({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: {
        protocolVersion: this.#options.protocolVersion ?? SESSIONFUL_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: this.#clientInfo(),
      },
    });
    const session = response.headers.get('mcp-session-id');
    const result = await this.#readResult(response, id);
    this.#initializeResult = result;
    if (session !== null) this.#sessionId = session;
    this.#negotiatedVersion = typeof result.protocolVersion === 'string' ? result.protocolVersion : undefined;
    const ack = await this.#post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await ack.body?.cancel();
    if (!ack.ok)
      throw new McpProtocolError('initialized_rejected', `notifications/initialized got HTTP ${ack.status}`);
  }

  /** Checklist item 1: where the extension is advertised (initialize result, or `server/discover`). */
  async discover(): Promise<DiscoveryInfo> {
    let raw: Record<string, unknown>;
    if (this.protocol === 'sessionful') {
      await this.connect();
      raw = this.#initializeResult ?? {};
    } else raw = await this.request('server/discover', {});
    const capabilities = isObject(raw.capabilities) ? raw.capabilities : {};
    const experimental = isObject(capabilities.experimental) ? capabilities.experimental : {};
    const advertised = experimental[SOURCE_RESULTS_EXTENSION];
    const meta = isObject(raw._meta) ? raw._meta : {};
    const serverInfo = isObject(raw.serverInfo) ? raw.serverInfo : meta['io.modelcontextprotocol/serverInfo'];
    const versions =
      this.protocol === 'sessionful'
        ? [raw.protocolVersion]
        : Array.isArray(raw.supportedVersions)
          ? raw.supportedVersions
          : [];
    const info: DiscoveryInfo = {
      protocol: this.protocol,
      protocolVersions: versions.filter((v): v is string => typeof v === 'string'),
      capabilities,
      raw,
    };
    if (isObject(serverInfo)) info.serverInfo = serverInfo;
    if (typeof raw.instructions === 'string') info.instructions = raw.instructions;
    if (isObject(advertised)) info.sourceResults = readCapability(advertised);
    return info;
  }

  /** `tools/list`, following `nextCursor` until the last page. */
  async listTools(): Promise<Record<string, unknown>[]> {
    const tools: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    do {
      const result = await this.request('tools/list', cursor === undefined ? {} : { cursor });
      if (Array.isArray(result.tools)) tools.push(...result.tools.filter(isObject));
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    } while (cursor !== undefined);
    return tools;
  }

  /**
   * `tools/call`. With `stream: true` the request carries the request-local opt-in object; the outcome
   * is confirmed only when the matching final response arrived (contract §5).
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallToolOptions = {},
  ): Promise<SourceResultsOutcome> {
    await this.connect();
    const { resume, progressToken, ...handlers } = options;
    const id = options.id ?? this.#allocateId();
    const startedAt = Date.now();
    const { signal } = options;
    let cancelling: Promise<void> | undefined;
    const onAbort = (): void => {
      cancelling = this.cancel(id).catch(() => undefined);
    };
    if (signal !== undefined && options.cancelOnAbort !== false) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    try {
      const params = {
        name,
        arguments: args,
        ...(progressToken === undefined ? {} : { _meta: { progressToken } }),
      };
      const response = await this.#post(
        { jsonrpc: '2.0', id, method: 'tools/call', params },
        { stream: options.stream === true, signal },
      );
      // 2026-07-28 has no resumption: its streams carry no ids and there is no session to replay them in.
      const resuming: ResumeOptions | undefined =
        resume === false || this.protocol === 'stateless'
          ? undefined
          : {
              ...resume,
              reconnect: (lastEventId) =>
                this.#send('GET', undefined, { 'Last-Event-ID': lastEventId }, signal),
              ...(signal === undefined ? {} : { signal }),
            };
      return await consumeSourceResults(response, {
        ...handlers,
        requestId: id,
        startedAt,
        ...(resuming === undefined ? {} : { resume: resuming }),
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await cancelling;
    }
  }

  /**
   * Sends `notifications/cancelled` for one of this client's requests (session-ful: in its session;
   * stateless: bound to the caller's token). The server ignores ids it does not know or that finished.
   */
  async cancel(requestId: RequestId, reason?: string): Promise<void> {
    const params: Record<string, unknown> = { requestId };
    if (reason !== undefined) params.reason = reason;
    const response = await this.#post({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
    await response.body?.cancel();
    if (!response.ok)
      throw new McpProtocolError('cancel_rejected', `notifications/cancelled got HTTP ${response.status}`);
  }

  /** Any request; returns its `result` or throws {@link McpRpcError} / {@link McpClientError}. */
  async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.connect();
    const id = this.#allocateId();
    return this.#readResult(await this.#post({ jsonrpc: '2.0', id, method, params }), id);
  }

  /**
   * Any request, read as a tool call's final response is read: a JSON-RPC error answer is a confirmed
   * outcome rather than an exception (`tasks/result` answers with the task's tool result or its error).
   */
  async requestOutcome(method: string, params: Record<string, unknown>): Promise<SourceResultsOutcome> {
    await this.connect();
    const id = this.#allocateId();
    const response = await this.#post({ jsonrpc: '2.0', id, method, params });
    return consumeSourceResults(response, { requestId: id });
  }

  /** Session-ful: ends the session with DELETE (a 405 means the server keeps no explicit end). */
  async close(): Promise<void> {
    if (this.protocol !== 'sessionful' || this.#sessionId === undefined) return;
    const response = await this.#send('DELETE', undefined, {});
    await response.body?.cancel();
    this.#sessionId = undefined;
    this.#initializeResult = undefined;
  }

  #allocateId(): number {
    return this.#nextId++;
  }

  #clientInfo(): { name: string; version: string } {
    return this.#options.clientInfo ?? { name: 'bos-mcp-client', version: '0.1.0' };
  }

  async #readResult(response: Response, id: RequestId): Promise<Record<string, unknown>> {
    const outcome = await consumeSourceResults(response, { requestId: id });
    if (!outcome.confirmed) throw new McpClientError('no_confirmed_result', `no response to request ${id}`);
    if (outcome.error) throw new McpRpcError(outcome.error.code, outcome.error.message, outcome.error.data);
    return outcome.result ?? {};
  }

  /** Builds the body `_meta` and the headers of one JSON-RPC POST. */
  async #post(
    message: { jsonrpc: '2.0'; id?: RequestId; method: string; params?: Record<string, unknown> },
    options: { stream?: boolean; signal?: AbortSignal | undefined } = {},
  ): Promise<Response> {
    const params = { ...(message.params ?? {}) };
    let meta = isObject(params._meta) ? params._meta : {};
    const headers: Record<string, string> = {};
    if (this.protocol === 'stateless') {
      // Every 2026-07-28 request describes itself; header and body versions must match.
      meta = {
        ...meta,
        [META_PROTOCOL_VERSION]: STATELESS_PROTOCOL_VERSION,
        [META_CLIENT_CAPABILITIES]: {},
        [META_CLIENT_INFO]: this.#clientInfo(),
      };
      headers['Mcp-Method'] = message.method;
      const name = mcpNameOf(message.method, params);
      if (name !== undefined) headers['Mcp-Name'] = encodeMcpHeaderValue(name);
    }
    if (options.stream === true) meta = withSourceResultsOptIn(meta);
    if (Object.keys(meta).length > 0) params._meta = meta;
    // Requests always carry params; a notification with nothing to say omits them.
    const body: Record<string, unknown> = { ...message, params };
    if (message.id === undefined && Object.keys(params).length === 0) delete body.params;
    return this.#send('POST', JSON.stringify(body), headers, options.signal);
  }

  async #send(
    method: 'POST' | 'GET' | 'DELETE',
    body: string | undefined,
    extra: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers = new Headers(extra);
    // MCP transport: POST lists both media types; the streaming opt-in lives in the body (contract §2).
    if (method === 'POST') {
      headers.set('Content-Type', 'application/json');
      headers.set('Accept', 'application/json, text/event-stream');
    }
    // A GET resumes a stream (`Last-Event-ID`): the answer can only be an event stream.
    if (method === 'GET') headers.set('Accept', 'text/event-stream');
    if (this.#options.token !== undefined) headers.set('Authorization', `Bearer ${this.#options.token}`);
    if (this.protocol === 'stateless') headers.set('MCP-Protocol-Version', STATELESS_PROTOCOL_VERSION);
    else if (this.#negotiatedVersion !== undefined)
      headers.set('MCP-Protocol-Version', this.#negotiatedVersion);
    if (this.#sessionId !== undefined) headers.set('Mcp-Session-Id', this.#sessionId);
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    if (signal !== undefined) init.signal = signal;
    try {
      return await this.#fetch(this.#options.url, init);
    } catch (error) {
      throw new McpClientError('network', `cannot reach ${String(this.#options.url)}`, { cause: error });
    }
  }
}

/** Keeps only well-typed advertised limits (validate at every edge). */
function readCapability(advertised: Record<string, unknown>): SourceResultsCapability {
  const capability: SourceResultsCapability = {};
  if (typeof advertised.pageSize === 'number') capability.pageSize = advertised.pageSize;
  if (typeof advertised.maxConcurrentSources === 'number')
    capability.maxConcurrentSources = advertised.maxConcurrentSources;
  if (typeof advertised.contractUri === 'string') capability.contractUri = advertised.contractUri;
  return capability;
}
