/**
 * `tools/call` in the session-ful shape: argument checks before any byte is sent, then either a buffered
 * JSON answer or an SSE stream for streaming tools (mcp-method-surface "Streaming tool progress (SSE)").
 * On SSE, status and headers go out first; from then on every failure is reported inside the stream as a
 * JSON-RPC error frame, and the stream always ends.
 */
import {
  InvalidParamsError,
  JsonRpcCode,
  McpError,
  outageOf,
  RequestCancelledError,
  toWireError,
} from '../errors.js';
import type { Responder } from '../http/http-responses.js';
import { resultPieces } from '../json/json-pieces.js';
import { errorJson, isObject, requestJson, resultJson } from '../json/json-rpc.js';
import { describeError } from '../logger.js';
import type { Runtime } from '../runtime.js';
import { SessionKey } from '../sessions/session-manager.js';
import { SseStream } from '../sse/index.js';
import { logThreshold, toolEmitters } from '../sse/tool-emitters.js';
import { bufferedToolContext, preflight, runTool, toolRunOptions } from '../tools/tool-runner.js';
import type { ToolOutcome } from '../tools/tool-runner.js';
import type {
  JsonObject,
  JsonRpcRequest,
  LoggingLevel,
  McpRequestContext,
  SessionRecord,
  StreamingToolContext,
} from '../types/index.js';
import { sessionfulTaskCall } from './tasks.js';
import { requestContext } from './context.js';
import type { RequestScope } from '../methods/index.js';
import type { EarlyPreflight } from './early-preflight.js';

/** A buffered JSON body (one string, or chunks for a large result), or a ready SSE response. */
export type ToolsCallAnswer = { kind: 'json'; body: string } | { kind: 'sse'; response: Response };

/** Session log threshold when the client never called `logging/setLevel` (MCP leaves it to the server). */
const defaultLogLevel: LoggingLevel = 'info';
const defaultClientRequestTimeoutMs = 60_000;

/**
 * The response to a call. A result that cannot be serialised (a handler broke the JSON types) becomes the
 * generic internal error, logged, as any other tool failure.
 */
function answer(rt: Runtime, id: JsonRpcRequest['id'], outcome: ToolOutcome): string {
  if (!outcome.ok) return errorJson(id, outcome.error);
  try {
    return resultJson(id, outcome.result);
  } catch (error) {
    rt.logger.error('tool result could not be serialised', describeError(error));
    return errorJson(id, toWireError(error));
  }
}

/**
 * The answer of a call whose response has not started: a store outage behind the outcome propagates, so
 * the server gives the one outage answer (503) rather than a 200 carrying -32603.
 */
function answerBeforeResponse(rt: Runtime, id: JsonRpcRequest['id'], outcome: ToolOutcome): string {
  const outage = outcome.ok ? undefined : outageOf(outcome.error);
  if (outage !== undefined) throw outage;
  return answer(rt, id, outcome);
}

/**
 * Tools/call: validates, then runs buffered or streaming. `allowStream` is false inside batches. `early`:
 * this request's `beforeStream` hook, already started beside the session read (`early-preflight.ts`); its
 * outcome is taken where the hook would otherwise be called.
 */
export async function callTool(
  rt: Runtime,
  scope: RequestScope,
  respond: Responder,
  session: SessionRecord,
  request: JsonRpcRequest,
  allowStream: boolean,
  early?: EarlyPreflight,
): Promise<ToolsCallAnswer> {
  const params = request.params;
  const name = params?.name;
  if (rt.options.capabilities.tools === false) {
    throw new McpError(JsonRpcCode.MethodNotFound, 'Method not found: tools/call');
  }
  if (typeof name !== 'string' || name === '')
    throw new InvalidParamsError('Invalid params: name is required');
  const entry = rt.tools.get(name);
  // Message pinned by fixture core-jsonrpc-error-envelope.json.
  if (entry === undefined) throw new InvalidParamsError(`tool not found: ${name.slice(0, 200)}`);
  const rawArgs = params?.arguments ?? {};
  if (!isObject(rawArgs)) throw new InvalidParamsError('Invalid params: arguments must be an object');
  const problem = await entry.validate(rawArgs);
  if (problem !== undefined) throw new InvalidParamsError(problem);
  if (rt.tasks !== undefined) {
    const signal = new AbortController().signal;
    const taskCtx = requestContext(scope, session, request.id, params, signal);
    const created = await sessionfulTaskCall(rt, rt.tasks, entry, rawArgs, params, taskCtx);
    if (created !== undefined) return { kind: 'json', body: resultJson(request.id, created) };
  } else if (params?.task !== undefined) {
    // No task runtime here: a task-augmented call must never fall back to a synchronous or SSE run.
    throw new InvalidParamsError('Invalid params: task-augmented tool calls are not supported');
  }

  const started = early?.request === request ? early : undefined;
  const controller = started?.controller ?? new AbortController();
  const untrackLocal = rt.inFlight.add(session.sessionId, request.id, controller);
  // A notification served by another execution environment reaches the call through the store.
  const unwatch = rt.cancellations.watch(
    { principal: scope.invocation.principal, sessionId: session.sessionId },
    request.id,
    controller,
  );
  const untrack = (): void => {
    untrackLocal();
    unwatch();
  };
  const base = requestContext(scope, session, request.id, params, controller.signal);
  const guard = toolRunOptions(rt, scope.invocation, name, entry.timeoutMs, controller);

  if (!entry.streaming) {
    try {
      return {
        kind: 'json',
        body: answerBeforeResponse(rt, request.id, await runTool(() => entry.handler(rawArgs, base), guard)),
      };
    } finally {
      untrack();
    }
  }
  const shouldStream =
    entry.options.shouldStream ?? ((ctx: McpRequestContext) => ctx.accepts('text/event-stream'));
  if (!allowStream || !shouldStream(base)) {
    try {
      const ctx = bufferedStreamingContext(base);
      return {
        kind: 'json',
        body: answerBeforeResponse(rt, request.id, await runTool(() => entry.handler(rawArgs, ctx), guard)),
      };
    } finally {
      untrack();
    }
  }

  const refused = await preflight(entry.options, rawArgs, base, guard, started?.outcome);
  if (refused !== undefined) {
    untrack();
    return { kind: 'json', body: answerBeforeResponse(rt, request.id, refused) };
  }
  // MCP 2025-11-25 transports: a dropped connection on a resumable stream is not a cancellation. The
  // tool keeps running (timeout and deadline still bound it) and its events keep being persisted for a
  // GET with Last-Event-ID, unless the tool's stream cannot be resumed and asks to be cancelled. Such a
  // stream is not persisted at all (no ids, no priming event): nothing could replay it meaningfully, and
  // on DynamoDB every persisted frame would wait for two writes.
  const cancelOnDisconnect = entry.options.cancelOnDisconnect === true;
  let streamId: string | undefined;
  try {
    if (!cancelOnDisconnect) streamId = await rt.streams.createStream(session.sessionId);
  } catch (error) {
    untrack();
    throw error;
  }
  const sse = new SseStream({
    ...(streamId !== undefined && {
      store: { store: rt.streams, sessionId: session.sessionId, streamId },
    }),
    keepaliveMs: rt.options.keepaliveMs,
    maxEventBytes: rt.options.maxStreamEventBytes,
    logger: rt.logger,
    onCancel: () => {
      if (cancelOnDisconnect) controller.abort(new RequestCancelledError('client_disconnected'));
    },
  });
  // `retry:` invites the client to reconnect; pointless on a stream whose work ends with the connection.
  sse.prime(cancelOnDisconnect ? undefined : rt.options.sseRetryMs);
  if (entry.options.leadingComment !== undefined) sse.comment(entry.options.leadingComment);
  const ctx = streamingContext(rt, base, session, sse, controller.signal, !cancelOnDisconnect);
  // A resumable stream outlives a disconnect, but not a client that stopped reading (it holds the invocation).
  const stalled = cancelOnDisconnect ? undefined : stalledSignal(scope.invocation.signal);
  const streamGuard = stalled?.signal === undefined ? guard : { ...guard, external: stalled.signal };
  const work = runTool(() => entry.handler(rawArgs, ctx), streamGuard)
    .then((outcome) =>
      sse.finish(
        outcome.ok ? resultPieces(request.id, outcome.result) : answer(rt, request.id, outcome),
        request.id,
      ),
    )
    .finally(() => {
      stalled?.release();
      untrack();
    });
  rt.track(work);
  return { kind: 'sse', response: respond.sse(sse.body, session.sessionId) };
}

/**
 * A signal that fires only when `signal` fires because the client stopped reading, and `release` to stop
 * following it once the call is over (the invocation's signal lives on: its listener must not).
 */
function stalledSignal(signal: AbortSignal | undefined): { signal?: AbortSignal; release: () => void } {
  if (signal === undefined) return { release: () => undefined };
  const controller = new AbortController();
  const follow = (): void => {
    const reason: unknown = signal.reason;
    if (reason instanceof RequestCancelledError && reason.code === 'client_stalled') controller.abort(reason);
  };
  if (signal.aborted) follow();
  else signal.addEventListener('abort', follow, { once: true });
  return { signal: controller.signal, release: () => signal.removeEventListener('abort', follow) };
}

/** A streaming context whose stream powers are no-ops (shouldStream said no, or inside a batch). */
const bufferedStreamingContext = (base: McpRequestContext): StreamingToolContext =>
  bufferedToolContext(base, () =>
    Promise.reject(new Error('server-to-client requests need an SSE response')),
  );

function streamingContext(
  rt: Runtime,
  base: McpRequestContext,
  session: SessionRecord,
  sse: SseStream,
  signal: AbortSignal,
  resumable: boolean,
): StreamingToolContext {
  const level = (session.data[SessionKey.logLevel] as LoggingLevel | undefined) ?? defaultLogLevel;
  return {
    ...base,
    ...toolEmitters(sse, base.meta, logThreshold(level)),
    closeStream(): void {
      // Closing a stream nobody can resume would only lose the rest of the call.
      if (resumable) sse.close();
    },
    request(method: string, params?: JsonObject, options?: { timeoutMs?: number }): Promise<JsonObject> {
      const pending = rt.clientRequests.create(session.sessionId, {
        signal,
        timeoutMs: options?.timeoutMs ?? defaultClientRequestTimeoutMs,
        ...(base.deadline !== undefined && { deadline: base.deadline }),
        deadlineReserveMs: rt.options.deadlineReserveMs,
      });
      sse.send(requestJson(pending.id, method, params));
      return pending.result;
    },
  };
}
