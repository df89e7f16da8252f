/**
 * The shared shape of our REST v1 streaming Lambda entries: `@middy/core` in `streamifyResponse` mode (middy
 * writes the prelude via `awslambda.HttpResponseStream.from` and pipes our body). Each entry supplies only
 * its composition and its routes; event parsing, error answers and streaming conversion live here once.
 * The app is composed on the first invocation (cold start), so importing an entry does no work, unless the
 * entry asks for `prepareAtInit` (see {@link RestEntryOptions.prepareAtInit}).
 */
import middy from '@middy/core';
import type { Context, StreamifyHandler } from 'aws-lambda';
import {
  createInvocation,
  createPowertoolsLogger,
  InvocationTelemetry,
  loggerPort,
  errorFields,
  cacheSyncRequest,
  eventKind,
  streamCompletionFields,
  internalErrorResponse,
  jsonRpcErrorResponse,
  parseRestEvent,
  RestEventError,
  restEventErrorResponse,
  taskWorkerRef,
  toRequest,
  toStreamingResult,
} from '../aws/index.js';
import type { CacheSyncRequest, RestProxyEvent, StreamingResult } from '../aws/index.js';
import { JsonRpcCode, taskTag } from '../mcp/index.js';
import type { Logger, McpInvocationContext, TaskRef, TaskRoundContext } from '../mcp/index.js';

/** What a composition root hands the entry. */
export interface ComposedApp {
  /**
   * Fetch-style handler: the MCP server, or an app wrapping one (authentication, metadata routes). It gets
   * the adapter's web `Request` and answers a web `Response`, which the entry streams to Lambda.
   */
  handle(request: Request, ctx: McpInvocationContext): Promise<Response>;
  /** `MCP_ENDPOINT`'s origin: requests are rebuilt on it, never on the `Host` header. */
  origin?: string;
  /** Resolves when calls that outlive their response (a stream closed mid-call) have finished. */
  settled?(): Promise<void>;
  /** Runs one round of a stored task: the work of a task worker invocation (`McpServer.runTask`). */
  runTask?(ref: TaskRef, round: TaskRoundContext): Promise<void>;
  /**
   * Brings the source cache's baselines up to date (`bos.cache.sync` events, docs/cache.md) within the
   * invocation's deadline; absent when no baseline table is configured.
   */
  syncCache?(request: CacheSyncRequest, invocation: SyncInvocation): Promise<void>;
  /** `MCP_RESPONSE_STALL_MS`: a write without progress this long ends the response and its work. */
  responseStallMs?: number;
  /**
   * Starts cold-start work that waits on the network (the issuer's keys) without awaiting it, so the wait
   * overlaps with the rest of the init and the first event. Must not throw; a failure of that work must
   * leave the request path to retry it.
   */
  prepare?(): void;
}

/** The invocation a cache sync runs in. */
export interface SyncInvocation {
  /** The lease owner (the invocation's request id). */
  readonly workerId?: string;
  /** The invocation's deadline (epoch ms). */
  readonly deadline?: number;
}

/** Options of {@link createRestEntry}. */
export interface RestEntryOptions {
  /** `component` field of the entry's log lines. */
  component: string;
  /**
   * Builds the app once per execution environment; may throw `ConfigError`. `telemetry` holds the ports
   * the app reports its calls, tools and sources through (metrics and the call log line).
   */
  compose(logger: Logger, telemetry: InvocationTelemetry): ComposedApp;
  /** True for the (stage-less, slash-canonical) paths this function serves; others get a 404. */
  serves(path: string): boolean;
  /**
   * Compose the app and call its `prepare()` when the entry is created, i.e. during Lambda's init phase
   * (module load), instead of on the first invocation. An on-demand cold start then overlaps the app's
   * network waits with the rest of the init. A composition that throws is logged and tried again by the
   * first invocation, which answers exactly as without this option (a generic 500 for a `ConfigError`).
   * @default false
   */
  prepareAtInit?: boolean;
}

/**
 * API Gateway's notice that a streamed response ended (docs/aws.md "Completion invocations"). It is not a
 * request: no app is composed or called, nothing is logged above debug, and the invocation succeeds with an
 * empty 200 that API Gateway discards. Answering it as a request would log an error and count a Lambda error
 * for every streamed call.
 */
function acknowledgeCompletion(event: RestProxyEvent, logger: Logger): StreamingResult {
  logger.debug('stream completion notice acknowledged', {
    ...streamCompletionFields(event),
  });
  return toStreamingResult(new Response(null, { status: 200 }));
}

/** The Lambda handler of one entry: a response-streaming handler (`awslambda.streamifyResponse`). */
export type RestEntryHandler = StreamifyHandler<RestProxyEvent, void>;

/**
 * Builds the deployed handler. `timeoutEarlyInMillis: 0`: middy's early timeout would throw after the
 * handler returned nothing, which API Gateway shows as a 502; the app gets the deadline instead and answers
 * before it.
 */
export function createRestEntry(options: RestEntryOptions): RestEntryHandler {
  const powertools = createPowertoolsLogger({ component: options.component });
  const logger = loggerPort(powertools);
  const telemetry = new InvocationTelemetry({ logger: powertools });
  let app: ComposedApp | undefined;
  if (options.prepareAtInit === true) {
    try {
      app = options.compose(logger, telemetry);
      app.prepare?.();
    } catch (error) {
      logger.error('composition failed at init; the first invocation tries again', errorFields(error));
    }
  }

  async function handle(event: RestProxyEvent, context: Context): Promise<StreamingResult> {
    const kind = eventKind(event);
    if (kind === 'stream-completion') return acknowledgeCompletion(event, logger);
    try {
      app ??= options.compose(logger, telemetry);
      if (kind === 'task-round') return await runTaskRound(app, event, context);
      if (kind === 'cache-sync') return await runCacheSync(app, event, context);
      const parts = parseRestEvent(event);
      const invocation = createInvocation(
        context,
        parts.sourceIp === undefined ? {} : { sourceIp: parts.sourceIp },
      );
      if (!options.serves(parts.path))
        return answer(jsonRpcErrorResponse(404, JsonRpcCode.InvalidRequest, 'Not Found'));
      const request = toRequest(parts, {
        signal: invocation.signal,
        ...(app.origin && { origin: app.origin }),
      });
      const response = await app.handle(request, invocation.context);
      telemetry.answered(
        response.status,
        request.headers.get('mcp-session-id') ?? response.headers.get('mcp-session-id'),
      );
      return toStreamingResult(response, {
        onAbort: (reason) => invocation.abort(reason),
        logger,
        ...(app.responseStallMs !== undefined && { stallMs: app.responseStallMs }),
      });
    } catch (error) {
      if (error instanceof RestEventError) return answer(restEventErrorResponse(error));
      // ConfigError lands here too: its problem list goes to the log, never to the client.
      logger.error('invocation failed before the response started', errorFields(error));
      return answer(internalErrorResponse());
    }
  }

  /** An answer of the entry's own (no app involved). */
  function answer(response: Response): StreamingResult {
    telemetry.answered(response.status, undefined);
    return toStreamingResult(response);
  }

  /**
   * A task worker invocation (an asynchronous self-invoke, docs/tasks.md): runs the round within this
   * invocation's deadline. Nobody reads the answer; it is an empty 204, or a 400 for a worker event this
   * bundle cannot read (another shape version, a malformed owner or id), with a warning line.
   */
  async function runTaskRound(
    composed: ComposedApp,
    event: unknown,
    context: Context,
  ): Promise<StreamingResult> {
    const ref = taskWorkerRef(event);
    if (ref === undefined) {
      logger.warn('task worker event not understood; ignored');
      return toStreamingResult(new Response(null, { status: 400 }));
    }
    const { context: invocation } = createInvocation(context);
    logger.info('task worker invocation', { task: taskTag(ref.taskId) });
    if (composed.runTask === undefined) logger.warn('task worker event for an app without tasks');
    else
      await composed.runTask(ref, {
        ...(invocation.requestId !== undefined && { workerId: invocation.requestId }),
        ...(invocation.deadline !== undefined && { deadline: invocation.deadline }),
      });
    return toStreamingResult(new Response(null, { status: 204 }));
  }

  /**
   * A source cache sync invocation (the schedule's, or `npm start`'s through the Invoke API): runs the syncs
   * within this invocation's deadline. Nobody reads the answer: an empty 204, or a 400 with a warning line
   * for an event this bundle cannot read.
   */
  async function runCacheSync(
    composed: ComposedApp,
    event: unknown,
    context: Context,
  ): Promise<StreamingResult> {
    const request = cacheSyncRequest(event);
    if (request === undefined) {
      logger.warn('cache sync event not understood; ignored');
      return toStreamingResult(new Response(null, { status: 400 }));
    }
    const { context: invocation } = createInvocation(context);
    if (composed.syncCache === undefined) logger.warn('cache sync event without a baseline table; ignored');
    else
      await composed.syncCache(request, {
        ...(invocation.requestId !== undefined && { workerId: invocation.requestId }),
        ...(invocation.deadline !== undefined && { deadline: invocation.deadline }),
      });
    return toStreamingResult(new Response(null, { status: 204 }));
  }

  const streaming = middy<RestProxyEvent, StreamingResult>({
    streamifyResponse: true,
    timeoutEarlyInMillis: 0,
    // Lambda freezes the environment once the invocation returns. A tool that closed its SSE stream
    // mid-call (SEP-1699 polling) must keep running until its events are persisted for the GET replay,
    // so the invocation waits for it here, after the body ended (its own timeout and deadline bound it).
    requestEnd: async () => {
      await app?.settled?.();
    },
  }).handler(handle) as unknown as RestEntryHandler;

  // The invocation as Lambda sees it: middy's streamed body and the tail it awaits run inside the
  // telemetry scope, and the call's log line and metrics are published once all of it has ended.
  return awslambda.streamifyResponse((event, responseStream, context) =>
    telemetry.run(context, async () => streaming(event, responseStream, context)),
  );
}
