/**
 * `McpServer`: the web-standard MCP endpoint. `handle(Request, McpInvocationContext) → Response`; no AWS,
 * no sockets. Transport checks run first in a fixed order (transport-checks.ts), then the body is parsed,
 * the protocol shape chosen (shape.ts), and the request dispatched to the session-ful shape (`sessionful/`) or
 * the stateless one (`stateless/`); both serve the methods of one table (`methods/table.ts`).
 */
import { buildCapabilities } from './registries/capabilities.js';
import { PendingClientRequests } from './tools/client-requests.js';
import { handleBatch, handleDelete, handleGet, handleSingle } from './sessionful/index.js';
import type { SessionfulInput } from './sessionful/index.js';
import type { RequestScope } from './methods/index.js';
import { JsonRpcCode, McpError, outageOf, SafeMessage } from './errors.js';
import { Responder } from './http/http-responses.js';
import { randomId } from './ids.js';
import { InFlightRequests } from './sessions/in-flight.js';
import { Cancellations } from './sessions/cancellations.js';
import { InMemoryCancelStore } from './stores/memory-cancel-store.js';
import { parseBody } from './json/json-rpc.js';
import { createJsonLogger, describeError } from './logger.js';
import { acceptsMediaType } from './http/media-type.js';
import { callAttributes } from './methods/call-attributes.js';
import { InMemorySessionStore } from './stores/memory-session-store.js';
import { InMemoryClientReplyStore } from './stores/memory-client-reply-store.js';
import { InMemoryStreamStore } from './stores/memory-stream-store.js';
import { PromptRegistry, ResourceRegistry, ToolRegistry } from './registries/index.js';
import type { CacheFields, CacheSurface, ResolvedOptions, Runtime } from './runtime.js';
import { SessionManager } from './sessions/session-manager.js';
import { detectHttpShape } from './http/shape.js';
import { handleStateless } from './stateless/index.js';
import { RequestStateGuard } from './stateless/request-state.js';
import { InMemoryRequestStateStore } from './stores/memory-request-state-store.js';
import { resolveTaskOptions } from './tasks/options.js';
import type { TaskRef, TaskRoundContext } from './types/tasks.js';
import { runTask } from './tasks/task-runner.js';
import { TaskService } from './tasks/task-service.js';
import { MAX_STREAM_EVENT_BYTES } from './sse/index.js';
import { RateLimiter, rateLimitRefusal } from './rate-limit/index.js';
import {
  acceptRanges,
  checkContentType,
  checkMethod,
  checkOrigin,
  checkPostAccept,
  readBody,
} from './http/transport-checks.js';
import type {
  CacheableResultsOptions,
  JsonObject,
  JsonRpcId,
  McpInvocationContext,
  McpServerOptions,
  PromptDef,
  PromptHandler,
  ResourceDef,
  ResourceHandler,
  ResourceTemplateDef,
  StreamingToolHandler,
  StreamingToolOptions,
  ToolDef,
  ToolHandler,
  ToolOptions,
} from './types/index.js';

const defaultOrigins = ['https://claude.ai', 'https://claude.com'];

const cacheSurfaces: readonly CacheSurface[] = [
  'serverDiscover',
  'toolsList',
  'promptsList',
  'resourcesList',
  'resourceTemplatesList',
  'resourcesRead',
];

/**
 * Fail-closed cache hints (mcp-method-surface "2026-07-28 cacheable results"): default 0 / private; a
 * negative or non-finite TTL becomes 0; only an explicit "public" is public.
 */
function cacheHints(config: CacheableResultsOptions | undefined): Record<CacheSurface, CacheFields> {
  const hints = {} as Record<CacheSurface, CacheFields>;
  for (const surface of cacheSurfaces) {
    const hint = config?.[surface];
    const ttl = hint?.ttlMs;
    hints[surface] = {
      ttlMs: typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? Math.floor(ttl) : 0,
      cacheScope: hint?.scope === 'public' ? 'public' : 'private',
    };
  }
  return hints;
}

function resolveOptions(options: McpServerOptions): ResolvedOptions {
  return {
    name: options.name,
    version: options.version,
    title: options.title,
    instructions: options.instructions,
    allowedOrigins: new Set((options.allowedOrigins ?? defaultOrigins).map((o) => o.toLowerCase())),
    keepaliveMs: options.keepaliveMs ?? 15_000,
    toolTimeoutMs: options.toolTimeoutMs ?? 60_000,
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    maxStreamEventBytes: Math.max(1024, options.maxStreamEventBytes ?? MAX_STREAM_EVENT_BYTES),
    maxBatchElements: Math.max(1, options.maxBatchElements ?? 50),
    batchConcurrency: Math.max(1, options.batchConcurrency ?? 4),
    maxBatchResponseBytes: Math.max(64, options.maxBatchResponseBytes ?? 4 * 1024 * 1024),
    pageSize: Math.max(1, options.pageSize ?? 50),
    deadlineReserveMs: options.deadlineReserveMs ?? 500,
    replayPollMs: options.replayPollMs ?? 250,
    listenerBudget: listenerBudget(options.initialSessionListenerBudget),
    sseRetryMs: options.sseRetryMs ?? 1000,
    capabilities: options.capabilities ?? {},
    completion: options.completion,
    loggingLevelHook: options.loggingLevelHook,
    resourceSubscriptionHooks: options.resourceSubscriptionHooks,
    includeServerInfoMetadata: options.includeServerInfoMetadata !== false,
    cacheHints: cacheHints(options.cacheableResults),
  };
}

/** A budget that would not keep the listener open at all is no budget. */
function listenerBudget(
  budget: McpServerOptions['initialSessionListenerBudget'],
): ResolvedOptions['listenerBudget'] {
  const max = budget?.maxDurationMs;
  if (max === undefined || !Number.isFinite(max) || max <= 0) return undefined;
  const safety = budget?.safetyBufferMs ?? 5_000;
  return {
    maxDurationMs: Math.floor(max),
    safetyBufferMs: Number.isFinite(safety) && safety > 0 ? safety : 0,
  };
}

function idOf(value: JsonObject): JsonRpcId | null {
  const id = value.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** An MCP server for one endpoint. Register surfaces, then call `handle` per HTTP request. */
export class McpServer {
  readonly #rt: Runtime;
  readonly #tasks = new Set<Promise<void>>();
  readonly #callTelemetry: McpServerOptions['callTelemetry'];
  readonly #limiter: RateLimiter | undefined;
  #capabilities: JsonObject | undefined;

  constructor(options: McpServerOptions) {
    const resolved = resolveOptions(options);
    this.#callTelemetry = options.callTelemetry;
    const clock = options.clock ?? Date.now;
    const logger = options.logger ?? createJsonLogger({ base: { component: 'mcp' } });
    this.#limiter =
      options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit, { logger, clock });
    const tools = new ToolRegistry();
    const resources = new ResourceRegistry();
    const prompts = new PromptRegistry();
    // Tasks need a store and at least one tool that accepts task execution (checked when advertising).
    const taskOptions = options.tasks === undefined ? undefined : resolveTaskOptions(options.tasks);
    const taskCapable = (): boolean =>
      taskOptions !== undefined &&
      tools.definitions().some((d) => (d.execution?.taskSupport ?? 'forbidden') !== 'forbidden');
    const loggingEnabled = (): boolean =>
      resolved.loggingLevelHook !== undefined && resolved.capabilities.logging !== false;
    this.#rt = {
      options: resolved,
      sessions: new SessionManager({
        store: options.sessionStore ?? new InMemorySessionStore(),
        ttlMinutes: options.sessionTtlMinutes ?? 60,
        clock,
        newSessionId: options.newSessionId ?? randomId,
      }),
      streams:
        options.streamStore ??
        new InMemoryStreamStore({
          clock,
          ...(options.newStreamId !== undefined && { newStreamId: options.newStreamId }),
        }),
      tools,
      resources,
      prompts,
      inFlight: new InFlightRequests(),
      cancellations: new Cancellations({
        store: options.cancelStore ?? new InMemoryCancelStore(),
        pollMs: Math.max(10, options.cancelPollMs ?? 500),
        // A marker must outlive the longest call it can name: Lambda's 15-minute maximum.
        ttlMs: 15 * 60_000,
        // A notification may overtake the request it names on the way into another environment.
        graceMs: 2_000,
        clock,
        logger,
      }),
      clientRequests: new PendingClientRequests({
        store: options.clientReplyStore ?? new InMemoryClientReplyStore({ clock }),
        pollMs: options.clientReplyPollMs ?? 100,
        clock,
        logger,
      }),
      requestStates: new RequestStateGuard({
        store: options.requestStateStore ?? new InMemoryRequestStateStore(),
        secret: options.requestStateSecret,
        ttlMs: Math.max(1, options.requestStateTtlMs ?? 300_000),
        clock,
      }),
      tasks:
        taskOptions === undefined
          ? undefined
          : new TaskService(
              taskOptions,
              taskOptions.launcher ?? { launch: (ref) => Promise.resolve(this.#rt.track(this.runTask(ref))) },
              clock,
              logger,
            ),
      logger,
      clock,
      telemetry: options.telemetry,
      capabilities: () =>
        (this.#capabilities ??= buildCapabilities(resolved.capabilities, {
          tools: tools.size,
          resources: resources.size,
          prompts: prompts.size,
          completion:
            resolved.completion?.prompt !== undefined || resolved.completion?.resource !== undefined,
          logging: loggingEnabled(),
          experimental: options.experimental,
          extensions: options.extensions,
          tasks: taskCapable(),
        })),
      loggingEnabled,
      track: (task) => {
        const observed = task.catch((error: unknown) =>
          logger.error('background task failed', describeError(error)),
        );
        this.#tasks.add(observed);
        void observed.finally(() => this.#tasks.delete(observed));
      },
    };
  }

  /** Registers a buffered tool. Throws on a duplicate name or an invalid input schema. */
  registerTool(def: ToolDef, handler: ToolHandler, options: ToolOptions = {}): void {
    this.#rt.tools.add({
      streaming: false,
      def,
      handler,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.beforeTask !== undefined && { beforeTask: options.beforeTask }),
    });
    this.#capabilities = undefined;
  }

  /** Registers a tool that may answer over SSE (progress, log and custom notifications). */
  registerStreamingTool(
    def: ToolDef,
    handler: StreamingToolHandler,
    options: StreamingToolOptions = {},
  ): void {
    this.#rt.tools.add({
      streaming: true,
      def,
      handler,
      options,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.beforeTask !== undefined && { beforeTask: options.beforeTask }),
    });
    this.#capabilities = undefined;
  }

  registerResource(def: ResourceDef, handler: ResourceHandler): void {
    this.#rt.resources.addResource(def, handler);
    this.#capabilities = undefined;
  }

  /** Registers a template for `resources/templates/list`; with a handler it also serves matching reads. */
  registerResourceTemplate(def: ResourceTemplateDef, handler?: ResourceHandler): void {
    this.#rt.resources.addTemplate(def, handler);
    this.#capabilities = undefined;
  }

  registerPrompt(def: PromptDef, handler: PromptHandler): void {
    this.#rt.prompts.add(def, handler);
    this.#capabilities = undefined;
  }

  /**
   * Runs the next round of a stored task (a worker invocation's entry point; the in-process launcher calls
   * it too). `round` names the worker and its invocation's deadline. Resolves when the round has written
   * its outcome, or at once when there is nothing to run (unknown, terminal, or already claimed); never
   * rejects.
   */
  async runTask(ref: TaskRef, round: TaskRoundContext = {}): Promise<void> {
    const tasks = this.#rt.tasks;
    if (tasks !== undefined) await runTask(this.#rt, tasks, ref, round);
  }

  /** Resolves when every streaming call started so far has finished writing its stream. */
  async settled(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  /**
   * Serves one HTTP request. Never rejects: failures become sanitized error responses.
   *
   * `request` is a web `Request`; the answer a web `Response` (JSON, 202 without a body, or an SSE stream).
   */
  async handle(request: Request, ctx: McpInvocationContext = {}): Promise<Response> {
    const respond = new Responder(ctx.requestId);
    try {
      return await this.#handle(request, ctx, respond);
    } catch (error) {
      const outage = outageOf(error);
      if (outage !== undefined) {
        this.#rt.logger.warn('store unavailable', { store: outage.store, ...describeError(outage) });
        const wire = new McpError(JsonRpcCode.InternalError, outage.wireMessage);
        return respond.rpcError(503, null, wire, { 'retry-after': '1' });
      }
      this.#rt.logger.error('request failed', describeError(error));
      return respond.rpcError(500, null, new McpError(JsonRpcCode.InternalError, SafeMessage.internal));
    }
  }

  /** Reports the call's attributes; telemetry never fails a call. */
  #annotate(headers: Headers, message: JsonObject | 'batch' | undefined, httpMethod: string): void {
    if (this.#callTelemetry === undefined) return;
    try {
      this.#callTelemetry.annotate(
        callAttributes(headers, message, (name) => this.#rt.tools.get(name) !== undefined, httpMethod),
      );
    } catch (error) {
      this.#rt.logger.warn('call telemetry failed', describeError(error));
    }
  }

  /** The rate limit, before the body or any store is read; requests without a principal are not counted. */
  async #limit(ctx: McpInvocationContext, respond: Responder): Promise<Response | undefined> {
    if (this.#limiter === undefined || ctx.principal === undefined) return undefined;
    const refused = rateLimitRefusal(await this.#limiter.check(ctx.principal));
    return refused && respond.rpcError(429, null, refused.error, refused.headers);
  }

  async #handle(request: Request, ctx: McpInvocationContext, respond: Responder): Promise<Response> {
    const rt = this.#rt;
    const { headers } = request;
    const method = request.method;
    const rejected = checkMethod(method, respond) ?? checkOrigin(headers, rt.options.allowedOrigins, respond);
    if (rejected !== undefined) return rejected;
    const limited = await this.#limit(ctx, respond);
    if (limited !== undefined) return limited;
    const ranges = acceptRanges(headers);
    const annotate = (message?: JsonObject | 'batch') => this.#annotate(headers, message, method);
    const scope: RequestScope = {
      invocation: ctx,
      accepts: (type) => acceptsMediaType(ranges, type.toLowerCase()),
    };
    const input = (headerVersion: string | undefined): SessionfulInput => ({
      rt,
      respond,
      scope,
      headers,
      headerVersion,
    });

    if (method !== 'POST') {
      annotate();
      const shape = detectHttpShape(headers);
      // 2026-07-28 routes only POST (mcp-method-surface: "GET /mcp and DELETE /mcp with the 2026-07-28 protocol header return 405").
      if (shape.shape === 'stateless')
        return respond.plainError(405, 'method not allowed', { allow: 'POST' });
      if (shape.shape === 'error') return respond.rpcError(400, null, shape.error);
      return method === 'GET'
        ? handleGet(input(shape.headerVersion), ranges)
        : handleDelete(input(shape.headerVersion));
    }

    const checked = checkContentType(headers, respond) ?? checkPostAccept(ranges, respond);
    if (checked !== undefined) return checked;
    const body = await readBody(request, rt.options.maxBodyBytes, respond);
    if (!body.ok) return body.response;
    const parsed = parseBody(body.text);
    if (parsed.kind === 'error') return respond.rpcError(200, null, parsed.error);
    if (parsed.kind === 'batch') {
      annotate('batch');
      const shape = detectHttpShape(headers);
      if (shape.shape !== 'sessionful')
        return respond.rpcError(
          200,
          null,
          new McpError(JsonRpcCode.ParseError, 'Parse error: invalid JSON object'),
        );
      return handleBatch(input(shape.headerVersion), parsed.values);
    }
    annotate(parsed.value);
    const shape = detectHttpShape(headers, parsed.value);
    if (shape.shape === 'error') return respond.rpcError(400, idOf(parsed.value), shape.error);
    if (shape.shape === 'stateless') {
      return handleStateless({ rt, respond, scope, headers }, parsed.value);
    }
    return handleSingle(input(shape.headerVersion), parsed.value);
  }
}
