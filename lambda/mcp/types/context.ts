/** What method handlers see (request contexts) and the handler signatures. */
import type {
  JsonObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonValue,
  LoggingLevel,
  Principal,
  ProtocolShape,
} from '../json/wire.js';
import type { PromptResult, ResourceContent, ResourceReadResult, ToolResult } from './registry.js';

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
  /**
   * Set when the call runs as a task (docs/tasks.md): there is no response stream, and a streaming tool's
   * `progress` message becomes the task's `statusMessage`.
   */
  task?: { taskId: string };
  /**
   * What the tool's `beforeStream` hook resolved to on this call (see `StreamingToolOptions.beforeStream`),
   * so a handler can use the checks the hook already made instead of repeating them. Undefined when the
   * hook did not run (the call answers JSON, or the tool has no hook) or resolved to undefined: a handler
   * must then do its checks itself. The runtime does not know its type; the tool that made it does.
   */
  prepared?: unknown;
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
   * Setting it makes it a request-local opt-in: in the 2026-07-28 shape a call it streams runs as a stream
   * rather than a task, unless the call carries `task` (docs/tasks.md "Tasks and streaming").
   */
  shouldStream?: (ctx: McpRequestContext) => boolean;
  /** Comment written first on the stream, after the priming event (if any). */
  leadingComment?: string;
  /**
   * Runs before the SSE response is committed (both shapes), so a refusal keeps ordinary HTTP/JSON-RPC
   * semantics: a thrown `McpError` (e.g. `InvalidParamsError`) answers the JSON error response, a
   * `ToolError` the JSON `isError: true` result; anything else a sanitized -32603. Not called when the
   * call answers JSON anyway. What it resolves to reaches the handler of the same call as `ctx.prepared`
   * (e.g. the grant it looked up), so the checks need not run twice on a streamed call.
   */
  beforeStream?: (args: JsonObject, ctx: McpRequestContext) => Promise<unknown>;
  /**
   * `beforeStream` reads only the caller (`ctx.principal`), the arguments and request-local metadata
   * (`ctx.meta`, `ctx.accepts`), never session state. A session-ful call that states its
   * `MCP-Protocol-Version` may then start the hook while its session is still being read, so a lookup in
   * the hook overlaps the session read instead of following it; the session is still checked first and its
   * failure answers exactly as without this option. @default false
   */
  sessionIndependentPreflight?: boolean;
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
  /** See {@link BeforeTaskHook}. */
  beforeTask?: BeforeTaskHook;
}

/** Options for `McpServer.registerTool`. */
export interface ToolOptions {
  /** Per-tool timeout overriding `McpServerOptions.toolTimeoutMs`. */
  timeoutMs?: number;
  /** See {@link BeforeTaskHook}. */
  beforeTask?: BeforeTaskHook;
}

/**
 * Runs in the request before a call becomes a task. A result answers the call synchronously instead (an
 * `input_required` result gathers input first, 2026-07-28 multi-round input); undefined creates the task,
 * which then sees the gathered `inputResponses`.
 */
export type BeforeTaskHook = (args: JsonObject, ctx: McpRequestContext) => Promise<ToolResult | undefined>;

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
