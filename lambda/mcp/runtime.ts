/**
 * The resolved state one `McpServer` shares with its dispatchers: options with defaults applied,
 * registries, stores and the in-process maps. Internal to `lambda/mcp`.
 */
import type { Cancellations } from './sessions/cancellations.js';
import type { InFlightRequests } from './sessions/in-flight.js';
import type { PendingClientRequests } from './tools/client-requests.js';
import type { PromptRegistry, ResourceRegistry, ToolRegistry } from './registries/index.js';
import type { SessionManager } from './sessions/session-manager.js';
import type { RequestStateGuard } from './stateless/request-state.js';
import type { TaskService } from './tasks/task-service.js';
import type { JsonObject, Logger, McpServerOptions, StreamStore, ToolTelemetryEvent } from './types/index.js';

/** `McpServerOptions` with every default applied. */
export interface ResolvedOptions {
  name: string;
  version: string;
  title: string | undefined;
  instructions: string | undefined;
  allowedOrigins: ReadonlySet<string>;
  keepaliveMs: number;
  toolTimeoutMs: number;
  maxBodyBytes: number;
  maxStreamEventBytes: number;
  /** 2025-03-26 batch bounds (docs/mcp-runtime.md "Session-ful dispatch"). */
  maxBatchElements: number;
  batchConcurrency: number;
  maxBatchResponseBytes: number;
  pageSize: number;
  deadlineReserveMs: number;
  replayPollMs: number;
  /** The opt-in window of `GET /mcp` without `Last-Event-ID`; undefined = one keepalive, then end. */
  listenerBudget: { maxDurationMs: number; safetyBufferMs: number } | undefined;
  /** `retry:` sent with the priming event of session-ful POST streams. */
  sseRetryMs: number;
  capabilities: NonNullable<McpServerOptions['capabilities']>;
  completion: McpServerOptions['completion'];
  loggingLevelHook: McpServerOptions['loggingLevelHook'];
  resourceSubscriptionHooks: McpServerOptions['resourceSubscriptionHooks'];
  /** 2026-07-28: inject `_meta["io.modelcontextprotocol/serverInfo"]` into results. */
  includeServerInfoMetadata: boolean;
  /** 2026-07-28 cache hints per cacheable surface, already normalised (finite, ≥ 0, integer). */
  cacheHints: Readonly<Record<CacheSurface, CacheFields>>;
}

/** The six 2026-07-28 surfaces whose complete results carry `ttlMs`/`cacheScope` (mcp-2026-notes §1.7). */
export type CacheSurface =
  | 'serverDiscover'
  | 'toolsList'
  | 'promptsList'
  | 'resourcesList'
  | 'resourceTemplatesList'
  | 'resourcesRead';

/** The wire fields of a cache hint. */
export interface CacheFields {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** Everything a dispatcher needs. */
export interface Runtime {
  options: ResolvedOptions;
  sessions: SessionManager;
  streams: StreamStore;
  tools: ToolRegistry;
  resources: ResourceRegistry;
  prompts: PromptRegistry;
  inFlight: InFlightRequests;
  /** Cancel markers shared between execution environments (`notifications/cancelled` on Lambda). */
  cancellations: Cancellations;
  clientRequests: PendingClientRequests;
  /** 2026-07-28 `requestState` issuing and redemption. */
  requestStates: RequestStateGuard;
  /** The task runtime; undefined when the server has no task store (tasks are then never offered). */
  tasks: TaskService | undefined;
  logger: Logger;
  clock: () => number;
  telemetry: ((event: ToolTelemetryEvent) => void) | undefined;
  /** The advertised capabilities (cached until the next registration). */
  capabilities(): JsonObject;
  /** Whether `logging/setLevel` is served (hook configured and the surface enabled). */
  loggingEnabled(): boolean;
  /** Keeps a background task (a streaming call) observed until it settles. */
  track(task: Promise<void>): void;
}
