/** Server options and the configuration types they use. */
import type { JsonObject, LoggingLevel } from '../json/wire.js';
import type { CompletionHook, McpRequestContext } from './context.js';
import type {
  CancelStore,
  ClientReplyStore,
  RequestStateStore,
  SessionStore,
  StreamStore,
} from './stores.js';
import type { TaskRuntimeOptions } from './tasks.js';
import type { CallTelemetry } from './telemetry.js';
import type { RateLimitOptions } from './rate-limit.js';

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

/** The opt-in window of the initial `GET /mcp` listener. */
export interface ListenerBudgetOptions {
  /** Longest the listener stays open. */
  maxDurationMs: number;
  /**
   * Time kept back from the invocation deadline: the listener ends this long before it. Without a known
   * deadline only `maxDurationMs` bounds it. @default 5000
   */
  safetyBufferMs?: number;
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
  /**
   * Largest JSON-RPC message one SSE event may carry (`MCP_STREAM_MAX_EVENT_BYTES`); an event over it fails the
   * call with a `-32603` "Stream event too large" final message. @default 10485760 (10 MiB)
   */
  maxStreamEventBytes?: number;
  /** Most elements a 2025-03-26 batch may hold; a larger batch is refused whole with -32600. @default 50 */
  maxBatchElements?: number;
  /** Most elements of one batch that run at once. @default 4 */
  batchConcurrency?: number;
  /**
   * Largest joined batch answer in bytes; answers past it become a -32603 "Response too large" each, and
   * requests not yet started when it is reached are not run. @default 4 MiB
   */
  maxBatchResponseBytes?: number;
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
  /**
   * The task runtime (docs/tasks.md): tools whose `execution.taskSupport` is `optional` or `required` may
   * then run as tasks. @default none (tasks are neither advertised nor accepted)
   */
  tasks?: TaskRuntimeOptions;
  completion?: { prompt?: CompletionHook; resource?: CompletionHook };
  loggingLevelHook?: (level: LoggingLevel, ctx: McpRequestContext) => Promise<void>;
  resourceSubscriptionHooks?: {
    subscribe: (uri: string, ctx: McpRequestContext) => Promise<void>;
    unsubscribe: (uri: string, ctx: McpRequestContext) => Promise<void>;
  };
  telemetry?: (event: ToolTelemetryEvent) => void;
  /**
   * Per-principal and per-tenant request limits on POST, GET and DELETE (docs/mcp-runtime.md "Rate limits"),
   * counted for requests that carry a principal. @default none (no limit)
   */
  rateLimit?: RateLimitOptions;
  /** Receives each call's method, tool and protocol version (metrics and the call's log line). @default none */
  callTelemetry?: CallTelemetry;
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
   * Keeps `GET /mcp` without `Last-Event-ID` open for a bounded window with keepalives instead of closing
   * after one keepalive (mcp-method-surface `WithInitialSessionListenerBudget`). Replay GETs are unchanged.
   * @default none (one keepalive, then end)
   */
  initialSessionListenerBudget?: ListenerBudgetOptions;
  /**
   * Where `notifications/cancelled` leaves a marker for a call running in another execution environment
   * (docs/mcp-runtime.md "Cancellation"). @default an in-memory store (one process; deployed multi-instance
   * use needs the shared DynamoDB-backed store)
   */
  cancelStore?: CancelStore;
  /**
   * How often a running `tools/call` reads its cancel marker: with the time to close the response, the
   * bound between a `notifications/cancelled` and the call's final frame. @default 500
   */
  cancelPollMs?: number;
  /**
   * `retry:` (reconnection delay, ms) sent with the priming event of session-ful POST SSE streams
   * (SEP-1699: servers SHOULD send it so clients know when to resume). @default 1000
   */
  sseRetryMs?: number;
}
