/**
 * `tools/call` in the 2026-07-28 stateless shape. Checks run before any byte is sent (task
 * augmentation → -32601, unknown tool, arguments, `Mcp-Param-*` headers, the echoed `requestState`);
 * then the tool answers JSON, or — a streaming tool whose `shouldStream` says so — SSE without priming
 * event or event ids (2026-07-28 has no resumption, mcp-2026-notes §1.4). Closing the SSE stream aborts
 * the handler's signal (the spec's cancellation). The final frame carries `resultType`.
 */
import { InvalidParamsError, McpError, outageOf, RequestCancelledError, toWireError } from '../errors.js';
import type { RequestScope } from '../methods/index.js';
import { resultPieces } from '../json/json-pieces.js';
import { errorJson, isObject, resultJson } from '../json/json-rpc.js';
import type { Runtime } from '../runtime.js';
import { SseStream } from '../sse/index.js';
import { logThreshold, toolEmitters } from '../sse/tool-emitters.js';
import { bufferedToolContext, preflight, runTool, toolRunOptions } from '../tools/tool-runner.js';
import type { ToolOutcome } from '../tools/tool-runner.js';
import type { Responder } from '../http/http-responses.js';
import type { ToolEntry } from '../registries/tools.js';
import type {
  JsonObject,
  JsonRpcRequest,
  McpRequestContext,
  StreamingToolContext,
  ToolResult,
} from '../types/index.js';
import { createStatelessTask, statelessTaskMode } from './tasks.js';
import { statelessContext } from './context.js';
import { checkParamHeaders, mirroredParams } from './headers.js';
import { methodNotFound } from './methods.js';
import { beginRound, finishRound } from './rounds.js';
import type { Round } from './rounds.js';
import { statusOf } from './errors.js';
import type { RequestMeta } from './validate.js';

/** The inputs of one stateless tools/call. */
export interface StatelessCall {
  rt: Runtime;
  scope: RequestScope;
  respond: Responder;
  headers: Headers;
  request: JsonRpcRequest;
  declared: RequestMeta;
  name: string;
}

/** `x-mcp-header` lists, computed once per registered definition. */
const mirrored = new WeakMap<object, [string, string][]>();

function mirroredOf(def: { inputSchema: JsonObject }): [string, string][] {
  let params = mirrored.get(def);
  if (params === undefined) {
    params = mirroredParams(def.inputSchema);
    mirrored.set(def, params);
  }
  return params;
}

/** Handler results pass through as-is; `finishRound` validates and shapes them. */
const passThrough = (result: ToolResult): JsonObject => {
  if (!isObject(result)) throw new TypeError('tool returned no result object');
  if (result.resultType !== 'input_required' && !Array.isArray(result.content)) {
    throw new TypeError('tool returned a result without a content array');
  }
  return result;
};

/**
 * Serialises an outcome as the final JSON-RPC message, and the HTTP status it deserves. A result is written by
 * `write`: `resultJson` for a JSON answer, `resultPieces` for an SSE final frame (never one string).
 */
async function settle<Body>(
  call: StatelessCall,
  round: Round,
  outcome: ToolOutcome,
  write: (id: JsonRpcRequest['id'], result: JsonObject) => Body,
  beforeResponse = false,
): Promise<{ status: number; body: Body | string }> {
  const { rt, request, declared } = call;
  let error: McpError;
  if (outcome.ok) {
    try {
      const result = await finishRound(rt, round, outcome.result, declared.clientCapabilities);
      return { status: 200, body: write(request.id, result) };
    } catch (failure) {
      if (beforeResponse && outageOf(failure) !== undefined) throw failure;
      if (!(failure instanceof McpError)) rt.logger.error('tool result rejected', { tool: call.name });
      error = toWireError(failure);
    }
  } else {
    error = outcome.error;
  }
  return { status: statusOf(error), body: errorJson(request.id, error) };
}

/** Runs one stateless tools/call and returns its response (JSON or SSE). */
export async function callStatelessTool(call: StatelessCall): Promise<Response> {
  const { rt, scope, respond, headers, request, declared, name } = call;
  const params = request.params;
  // Without a task runtime a task-augmented call is unavailable (fixture stateless-session-bound-rejections);
  // with one, a legacy `task` param is ignored: the server decides (SEP-2663).
  if (rt.options.capabilities.tools === false || (params?.task !== undefined && rt.tasks === undefined))
    throw methodNotFound(request.method);
  const entry = rt.tools.get(name);
  // Message pinned by fixture core-jsonrpc-error-envelope.json.
  if (entry === undefined) throw new InvalidParamsError(`tool not found: ${name.slice(0, 200)}`);
  const rawArgs = params?.arguments ?? {};
  if (!isObject(rawArgs)) throw new InvalidParamsError('Invalid params: arguments must be an object');
  const mirroredError = checkParamHeaders(headers, mirroredOf(entry.def), rawArgs);
  if (mirroredError !== undefined) throw mirroredError;
  const problem = await entry.validate(rawArgs);
  if (problem !== undefined) throw new InvalidParamsError(problem);
  const mode = statelessTaskMode(rt, entry, declared.clientCapabilities);
  const round = await beginRound(rt, scope.invocation, request.method, name, rawArgs, params);

  const controller = new AbortController();
  const base = statelessContext(scope, request.id, declared, controller.signal, round);
  const guard = {
    ...toolRunOptions(rt, scope.invocation, name, entry.timeoutMs, controller),
    shapeResult: passThrough,
  };
  const json = async (outcome: ToolOutcome): Promise<Response> => {
    // Nothing has been sent yet: a store outage gets the one outage answer (503), not a 200.
    const outage = outcome.ok ? undefined : outageOf(outcome.error);
    if (outage !== undefined) throw outage;
    const out = await settle(call, round, outcome, resultJson, true);
    return respond.json(out.status, out.body);
  };

  if (mode === 'task' && rt.tasks !== undefined && !streamsInstead(entry, params, base)) {
    const tasks = rt.tasks;
    const hook = entry.beforeTask;
    const early =
      hook === undefined ? undefined : await runTool(() => hook(rawArgs, base).then(orTask), guard);
    if (early !== undefined && !(early.ok && early.result === (TASK as unknown))) return json(early);
    const created = await createStatelessTask(rt, tasks, name, rawArgs, base);
    return respond.json(200, resultJson(request.id, created));
  }
  // The spec's cancellation (closing the stream) is invisible on Lambda; the caller's own
  // `notifications/cancelled` for this id reaches the call through the store instead.
  const unwatch = rt.cancellations.watch({ principal: scope.invocation.principal }, request.id, controller);
  let streamed = false;
  try {
    if (!entry.streaming) return await json(await runTool(() => entry.handler(rawArgs, base), guard));
    const shouldStream =
      entry.options.shouldStream ?? ((ctx: McpRequestContext) => ctx.accepts('text/event-stream'));
    if (!shouldStream(base)) {
      return await json(await runTool(() => entry.handler(rawArgs, bufferedContext(base)), guard));
    }
    const refused = await preflight(entry.options, rawArgs, base, guard);
    if (refused !== undefined) return await json(refused);
    const sse = new SseStream({
      keepaliveMs: rt.options.keepaliveMs,
      maxEventBytes: rt.options.maxStreamEventBytes,
      logger: rt.logger,
      onCancel: () => controller.abort(new RequestCancelledError('client_disconnected')),
    });
    if (entry.options.leadingComment !== undefined) sse.comment(entry.options.leadingComment);
    const ctx = streamingContext(base, declared, sse);
    const work = runTool(() => entry.handler(rawArgs, ctx), guard)
      .then(async (outcome) =>
        sse.finish((await settle(call, round, outcome, resultPieces)).body, request.id),
      )
      .finally(unwatch);
    streamed = true;
    rt.track(work);
    return respond.sse(sse.body);
  } finally {
    // A streamed call's watch ends with its work; every other answer is complete here.
    if (!streamed) unwatch();
  }
}

/**
 * Tasks and streaming on one call (docs/tasks.md "Tasks and streaming"). The extension lets the server
 * decide; a tool's own `shouldStream` is a request-local opt-in (such as `bos/source-results/v1`), more
 * specific than a capability declared for every call, so it wins when the call carries no `task` parameter
 * and the tool may run synchronously. A `task` parameter keeps the task: never a stream then.
 */
function streamsInstead(entry: ToolEntry, params: JsonObject | undefined, ctx: McpRequestContext): boolean {
  if (!entry.streaming) return false;
  const shouldStream = entry.options.shouldStream;
  return (
    shouldStream !== undefined &&
    params?.task === undefined &&
    entry.def.execution?.taskSupport !== 'required' &&
    shouldStream(ctx)
  );
}

/** What a `beforeTask` hook's "go ahead" becomes inside `runTool`, so one guard covers the hook. */
const TASK = { content: [] } as ToolResult;

function orTask(result: ToolResult | undefined): ToolResult {
  return result ?? TASK;
}

function noServerRequests(): Promise<JsonObject> {
  // 2026-07-28 streams carry no server-to-client requests; tools ask through input_required (MRTR).
  return Promise.reject(
    new Error('server-to-client requests are not available in 2026-07-28; use input_required'),
  );
}

const bufferedContext = (base: McpRequestContext): StreamingToolContext =>
  bufferedToolContext(base, noServerRequests);

function streamingContext(
  base: McpRequestContext,
  declared: RequestMeta,
  sse: SseStream,
): StreamingToolContext {
  return {
    ...base,
    // Without `_meta` logLevel the server MUST NOT emit notifications/message (mcp-2026-notes §1.2).
    ...toolEmitters(sse, base.meta, logThreshold(declared.logLevel)),
    request: noServerRequests,
  };
}
