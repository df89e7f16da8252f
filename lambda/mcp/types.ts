/**
 * Public types of the MCP runtime. Everything outside `lambda/mcp` (the BOS app, the AWS adapters, the
 * conformance app, tests) codes against these; the implementation lives beside this file.
 *
 * The runtime is web-standard: `McpServer.handle(Request, McpInvocationContext) => Promise<Response>`.
 */

/** JSON value as it appears on the wire. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON-RPC id. `null` only appears in error responses to unparseable requests. */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId | null; result: JsonObject }
  | { jsonrpc: '2.0'; id: JsonRpcId | null; error: JsonRpcErrorObject };

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The caller, as established by authentication before the runtime sees the request. */
export interface Principal {
  /** Stable subject identifier (the token's `sub`). Sessions are bound to it. */
  subject: string;
  /** Granted OAuth scopes. */
  scopes: readonly string[];
}

/**
 * Per-invocation facts the adapter knows and the protocol layer needs. Nothing here is read from
 * request headers by the runtime itself.
 */
export interface McpInvocationContext {
  /** Adapter request id (Lambda's awsRequestId locally and deployed). */
  requestId?: string;
  /** Absolute epoch-ms instant by which the response must be complete (Lambda deadline). */
  deadline?: number;
  /** Fires when the client goes away or the invocation is being torn down. */
  signal?: AbortSignal;
  /** The authenticated caller, if authentication ran. */
  principal?: Principal;
  /** Client IP as seen by the front (REST v1: `requestContext.identity.sourceIp`). */
  sourceIp?: string;
}

/** The two protocol shapes served on one endpoint. */
export type ProtocolShape = 'sessionful' | 'stateless';

export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

// ---------------------------------------------------------------------------------------------
// Registries
// ---------------------------------------------------------------------------------------------

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** A tool definition; `inputSchema` and `outputSchema` are kept verbatim (JSON Schema 2020-12 included). */
export interface ToolDef {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  execution?: { taskSupport?: TaskSupport };
  _meta?: JsonObject;
}

export type ContentBlock =
  | { type: 'text'; text: string; _meta?: JsonObject }
  | { type: 'image'; data: string; mimeType: string; _meta?: JsonObject }
  | { type: 'audio'; data: string; mimeType: string; _meta?: JsonObject }
  | {
      type: 'resource_link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
    }
  | { type: 'resource'; resource: ResourceContent };

/** An input request in a 2026-07-28 `input_required` result. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list' | (string & {});
  params?: JsonObject;
}

export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
  /** 2026-07-28 multi-round input; ignored (and unavailable) in the session-ful shape. */
  resultType?: 'complete' | 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

export interface ResourceDef {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  _meta?: JsonObject;
}

export interface ResourceTemplateDef {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/**
 * A `resources/read` handler's answer when it needs 2026-07-28 multi-round input (or wants to set
 * `_meta`). Handlers may keep returning a plain `ResourceContent[]`.
 */
export interface ResourceReadResult {
  contents: ResourceContent[];
  _meta?: JsonObject;
  resultType?: 'complete' | 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

export type ResourceContent =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface PromptDef {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
  resultType?: 'complete' | 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

// ---------------------------------------------------------------------------------------------
// Handler contexts
// ---------------------------------------------------------------------------------------------

/** What every method handler can see about the request it serves. */
export interface McpRequestContext {
  /** The shape this request was routed through. */
  shape: ProtocolShape;
  /** Negotiated (session-ful) or declared (stateless) protocol version. */
  protocolVersion: string;
  /** Session id in the session-ful shape. */
  sessionId?: string;
  /** The JSON-RPC id of the request being served. */
  requestId: JsonRpcId;
  /** Fires on `notifications/cancelled`, client disconnect, tool timeout, or deadline. */
  signal: AbortSignal;
  /** Absolute epoch-ms deadline of the invocation, if known. */
  deadline?: number;
  principal?: Principal;
  /** `params._meta` of the request, verbatim (may be empty). */
  meta: JsonObject;
  /** Parsed media types the client listed in `Accept`. */
  accepts: (mediaType: string) => boolean;
  /** 2026-07-28 retry inputs (empty in the session-ful shape). */
  inputResponses?: JsonObject;
  requestState?: string;
  /** Client capabilities (session-ful: from initialize; stateless: from `_meta`). */
  clientCapabilities: JsonObject;
}

/** Extra powers a streaming tool gets while its SSE response is open. */
export interface StreamingToolContext extends McpRequestContext {
  /** Send `notifications/progress` tied to the request's progressToken (no-op without a token). */
  progress(progress: number, total?: number, message?: string): void;
  /** Send `notifications/message` if the session's log level allows it. */
  log(level: LoggingLevel, data: JsonValue, logger?: string): void;
  /** Send an arbitrary JSON-RPC notification as one `event: message` frame. */
  notify(notification: JsonRpcNotification): void;
  /** Send an SSE comment line (e.g. `: bos/source-results/v1`). */
  comment(text: string): void;
  /** Session-ful only: send a server-to-client request on this stream and await the client's POSTed reply. */
  request(method: string, params?: JsonObject, options?: { timeoutMs?: number }): Promise<JsonObject>;
  /**
   * Resolves when the SSE body has room again (the consumer pulled). Producers that emit many frames
   * should await it to respect backpressure; it resolves at once when the response is plain JSON.
   */
  ready?(): Promise<void>;
  /**
   * SEP-1699 polling (session-ful, resumable streams only): ends this call's SSE response after the frames
   * sent so far while the call keeps running. Later frames are still persisted, and the client resumes
   * with GET + `Last-Event-ID` (the priming event's `retry:` says when). No-op on a JSON answer or on a
   * stream registered with `cancelOnDisconnect`.
   */
  closeStream?(): void;
}

export type ToolHandler = (args: JsonObject, ctx: McpRequestContext) => Promise<ToolResult>;
export type StreamingToolHandler = (args: JsonObject, ctx: StreamingToolContext) => Promise<ToolResult>;

export interface StreamingToolOptions {
  /**
   * Decides per call whether to answer with SSE. Default: always stream when the client's Accept lists
   * `text/event-stream` (which every valid POST does). The BOS extension narrows this to its opt-in.
   * When false the handler still runs, with notify/progress/comment as no-ops, and the result is JSON.
   */
  shouldStream?: (ctx: McpRequestContext) => boolean;
  /** Comment written first on the stream, after the priming event (if any). */
  leadingComment?: string;
  /**
   * Runs before the SSE response is committed (both shapes), so a refusal keeps ordinary HTTP/JSON-RPC
   * semantics: a thrown `McpError` (e.g. `InvalidParamsError`) answers the JSON error response, a
   * `ToolError` the JSON `isError: true` result; anything else a sanitized -32603. Not called when the
   * call answers JSON anyway.
   */
  beforeStream?: (args: JsonObject, ctx: McpRequestContext) => Promise<void>;
  /** Per-tool timeout overriding `McpServerOptions.toolTimeoutMs`. */
  timeoutMs?: number;
  /**
   * Abort the handler when the client drops the SSE connection. MCP 2025-11-25 transports: a disconnect
   * "SHOULD NOT be interpreted as the client cancelling its request" on a resumable stream, so by default
   * the tool keeps running (bounded by its timeout and the invocation deadline), its events keep being
   * persisted, and a GET with `Last-Event-ID` replays them. Streams that cannot be resumed (the BOS
   * extension: "Disconnect cancels outstanding work") set this. @default false
   */
  cancelOnDisconnect?: boolean;
}

/** Options for `McpServer.registerTool`. */
export interface ToolOptions {
  /** Per-tool timeout overriding `McpServerOptions.toolTimeoutMs`. */
  timeoutMs?: number;
}

export type ResourceHandler = (
  uri: string,
  ctx: McpRequestContext,
) => Promise<ResourceContent[] | ResourceReadResult>;
export type PromptHandler = (args: Record<string, string>, ctx: McpRequestContext) => Promise<PromptResult>;

export interface CompletionRequest {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}
export type CompletionHook = (req: CompletionRequest, ctx: McpRequestContext) => Promise<CompletionResult>;

// ---------------------------------------------------------------------------------------------
// Stores (ports). Implementations: in-memory here, DynamoDB in lambda/aws.
// ---------------------------------------------------------------------------------------------

export interface SessionRecord {
  sessionId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds; the DynamoDB item stores epoch seconds in `expiresAt`. */
  expiresAt: number;
  /** Small string map: negotiated version, initialized marker, log level, principal subject, … */
  data: Record<string, string>;
}

/**
 * Session persistence port. `get` returns whatever is stored, expired or not: the runtime checks expiry
 * on every read *before* the sliding refresh, because DynamoDB deletes expired items up to days late.
 * Implementations throw `SessionStoreUnavailableError` when the backend cannot answer.
 */
export interface SessionStore {
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Upsert. */
  put(record: SessionRecord): Promise<void>;
  delete(sessionId: string): Promise<void>;
}

export interface StoredStreamEvent {
  /** SSE event id, unique per session. */
  eventId: string;
  /** The SSE `data:` payload (empty for the priming event). */
  data: string;
}

/** Resumable-stream persistence port (session-ful SSE replay via Last-Event-ID). */
export interface StreamStore {
  /** Creates a stream for a session and returns its id. */
  createStream(sessionId: string): Promise<string>;
  /** Appends an event and returns its session-unique id. */
  append(sessionId: string, streamId: string, data: string): Promise<string>;
  close(sessionId: string, streamId: string): Promise<void>;
  /** The stream an event id belongs to, or undefined when unknown/expired. */
  streamOf(sessionId: string, eventId: string): Promise<string | undefined>;
  /** Events strictly after `eventId` on its stream, and whether the stream has closed. */
  after(sessionId: string, eventId: string): Promise<{ events: StoredStreamEvent[]; closed: boolean }>;
  deleteSession(sessionId: string): Promise<void>;
}

/** A client's answer to a server-to-client request: exactly one of `result` or `error`. */
export interface ClientReply {
  result?: JsonObject;
  error?: JsonRpcErrorObject;
}

/**
 * Hand-over of client replies between execution environments. The POST carrying a client's JSON-RPC
 * response may be served by another instance than the one whose tool is waiting in `ctx.request()`; it
 * `put`s the reply here and the waiting instance polls `take`. Implementations treat items past their
 * retention as absent and make `take` remove what it returns (at most once per `put`).
 */
export interface ClientReplyStore {
  put(sessionId: string, requestId: string, reply: ClientReply): Promise<void>;
  /** Removes and returns the reply, or undefined when none (or only an expired one) is stored. */
  take(sessionId: string, requestId: string): Promise<ClientReply | undefined>;
}

/**
 * Single-use ledger of issued 2026-07-28 `requestState` bindings (keys are HMAC digests, never the
 * state itself). Implementations must make `take` atomic (DynamoDB: a conditional delete), and must
 * treat records past `expiresAt` as absent even if the backend has not deleted them yet.
 */
export interface RequestStateStore {
  /** Records `key` as redeemable until `expiresAt` (epoch ms). */
  put(key: string, expiresAt: number): Promise<void>;
  /** Removes `key`; true only when it was present and `now < expiresAt` (at most once per `put`). */
  take(key: string, now: number): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// Server options
// ---------------------------------------------------------------------------------------------

/** Which implemented surfaces may be advertised (they are advertised only when also registered). */
export interface CapabilityConfig {
  /** @default true */
  tools?: boolean;
  /** @default true */
  resources?: boolean;
  /** @default true */
  prompts?: boolean;
  /** @default true */
  completions?: boolean;
  /** @default true */
  logging?: boolean;
}

export interface CacheHint {
  ttlMs: number;
  scope: 'public' | 'private';
}

export interface CacheableResultsOptions {
  serverDiscover?: CacheHint;
  toolsList?: CacheHint;
  promptsList?: CacheHint;
  resourcesList?: CacheHint;
  resourceTemplatesList?: CacheHint;
  resourcesRead?: CacheHint;
}

/** Structured logger; `lambda/` code never uses `console`. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Lifecycle telemetry: never carries raw arguments, tokens or raw errors. */
export interface ToolTelemetryEvent {
  name: string;
  phase: 'start' | 'finish';
  startedAt: number;
  finishedAt?: number;
  durationMs?: number;
  outcome?: 'ok' | 'tool_error' | 'invalid_params' | 'timeout' | 'internal_error' | 'cancelled';
  jsonRpcCode?: number;
  isError?: boolean;
}

export interface McpServerOptions {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
  /** Origins allowed when a request carries `Origin`. @default ['https://claude.ai', 'https://claude.com'] */
  allowedOrigins?: readonly string[];
  /** @default in-memory store */
  sessionStore?: SessionStore;
  /** @default in-memory store */
  streamStore?: StreamStore;
  /** Sliding session TTL. @default 60 (MCP_SESSION_TTL_MINUTES) */
  sessionTtlMinutes?: number;
  capabilities?: CapabilityConfig;
  /** Advertised under `capabilities.experimental` (e.g. `bos/source-results/v1`). */
  experimental?: Record<string, JsonObject>;
  /** Advertised under `capabilities.extensions`. */
  extensions?: Record<string, JsonObject>;
  /** Idle interval between `: keepalive` comments on SSE. @default 15000 */
  keepaliveMs?: number;
  /** Default per-tool timeout. @default 60000 */
  toolTimeoutMs?: number;
  /** Largest accepted request body. @default 4 MiB */
  maxBodyBytes?: number;
  /** 2026-07-28: add `_meta["io.modelcontextprotocol/serverInfo"]` to results. @default true */
  includeServerInfoMetadata?: boolean;
  cacheableResults?: CacheableResultsOptions;
  /**
   * HMAC-SHA256 secret binding 2026-07-28 `requestState` values to the principal and the request
   * (docs/mcp-runtime.md "Multi-round input"). @default 32 random bytes per process (states then do not
   * survive a restart and are refused on other instances unless they share `requestStateStore` and secret)
   */
  requestStateSecret?: string;
  /** How long an issued `requestState` stays redeemable. @default 300000 (5 min) */
  requestStateTtlMs?: number;
  /**
   * Single-use record of issued `requestState` values. @default in-memory (one process); deployed
   * multi-instance use needs a shared (DynamoDB-backed) implementation.
   */
  requestStateStore?: RequestStateStore;
  completion?: { prompt?: CompletionHook; resource?: CompletionHook };
  loggingLevelHook?: (level: LoggingLevel, ctx: McpRequestContext) => Promise<void>;
  resourceSubscriptionHooks?: {
    subscribe: (uri: string, ctx: McpRequestContext) => Promise<void>;
    unsubscribe: (uri: string, ctx: McpRequestContext) => Promise<void>;
  };
  telemetry?: (event: ToolTelemetryEvent) => void;
  logger?: Logger;
  /** Injected for deterministic tests. @default Date.now */
  clock?: () => number;
  /** Injected for deterministic tests. @default 128-bit CSPRNG ids */
  newSessionId?: () => string;
  /** Stream ids of the default in-memory stream store. @default 128-bit CSPRNG ids */
  newStreamId?: () => string;
  /** Items per page on every list method. @default 50 */
  pageSize?: number;
  /** Time kept back from `ctx.deadline` when aborting work, so the final frame still fits. @default 500 */
  deadlineReserveMs?: number;
  /** How often a replay GET polls the stream store while the stream is still open. @default 250 */
  replayPollMs?: number;
  /**
   * Where client replies to server-to-client requests are handed between instances. @default in-memory
   * (one process); deployed multi-instance use needs a shared (DynamoDB-backed) implementation.
   */
  clientReplyStore?: ClientReplyStore;
  /** How often a tool waiting in `ctx.request()` polls `clientReplyStore`. @default 100 */
  clientReplyPollMs?: number;
  /**
   * `retry:` (reconnection delay, ms) sent with the priming event of session-ful POST SSE streams
   * (SEP-1699: servers SHOULD send it so clients know when to resume). @default 1000
   */
  sseRetryMs?: number;
}
