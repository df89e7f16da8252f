/**
 * The resolved state one `McpServer` shares with its dispatchers: options with defaults applied,
 * registries, stores and the in-process maps. Internal to `lambda/mcp`.
 */
import type { InFlightRequests } from './in-flight.js';
import type { PendingClientRequests } from './client-requests.js';
import type { PromptRegistry, ResourceRegistry, ToolRegistry } from './registries/index.js';
import type { SessionManager } from './session-manager.js';
import type { JsonObject, Logger, McpServerOptions, StreamStore, ToolTelemetryEvent } from './types.js';

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
  pageSize: number;
  deadlineReserveMs: number;
  replayPollMs: number;
  capabilities: NonNullable<McpServerOptions['capabilities']>;
  completion: McpServerOptions['completion'];
  loggingLevelHook: McpServerOptions['loggingLevelHook'];
  resourceSubscriptionHooks: McpServerOptions['resourceSubscriptionHooks'];
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
  clientRequests: PendingClientRequests;
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
