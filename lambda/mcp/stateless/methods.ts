/**
 * The stateless subset other than `tools/call` and the task methods (mcp-method-surface: the methods the
 * table marks for the stateless shape), dispatched through the method table (`methods/table.ts`). What this
 * shape adds: the request's declared `_meta` as the handler's context, a round for the methods that may
 * answer `input_required`, and the 2026-07-28 result fields (`resultType`, serverInfo, cache hints). Anything
 * the shape does not serve is -32601 (HTTP 404). Each returns the wire `result` or throws an `McpError`.
 */
import { JsonRpcCode, McpError } from '../errors.js';
import { servedMethod } from '../methods/index.js';
import type { MethodCall, RequestScope } from '../methods/index.js';
import type { Runtime } from '../runtime.js';
import { guardedCall } from '../tools/guarded-call.js';
import type { JsonObject, JsonRpcRequest, JsonValue, McpRequestContext } from '../types/index.js';
import { statelessContext } from './context.js';
import { completeResult } from './results.js';
import { beginRound, finishRound } from './rounds.js';
import type { Round } from './rounds.js';
import type { RequestMeta } from './validate.js';

/** -32601 "Method not found: <method>" (HTTP 404 in this shape). */
export function methodNotFound(method: string): McpError {
  return new McpError(JsonRpcCode.MethodNotFound, `Method not found: ${method}`);
}

/** Runs a handler under the request's timeout, deadline and disconnect signal. */
async function guarded<T>(
  rt: Runtime,
  scope: RequestScope,
  request: JsonRpcRequest,
  declared: RequestMeta,
  round: Round | undefined,
  fn: (ctx: McpRequestContext) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const ctx = statelessContext(scope, request.id, declared, controller.signal, round);
  return guardedCall(() => fn(ctx), {
    controller,
    timeoutMs: rt.options.toolTimeoutMs,
    deadline: scope.invocation.deadline,
    deadlineReserveMs: rt.options.deadlineReserveMs,
    external: scope.invocation.signal,
    clock: rt.clock,
    logger: rt.logger,
  });
}

/** Dispatches one stateless request other than tools/call; `name` is the routed name `Mcp-Name` matched. */
export async function callStatelessMethod(
  rt: Runtime,
  scope: RequestScope,
  request: JsonRpcRequest,
  declared: RequestMeta,
  name: string | undefined,
): Promise<JsonObject> {
  const { method, params } = request;
  const spec = servedMethod(rt, method, 'stateless');
  if (spec?.handle === undefined || (spec.nameParam !== undefined && name === undefined))
    throw methodNotFound(method);
  // A method that may answer input_required runs in a round: retry inputs validated, an echoed
  // requestState redeemed before its handler runs (after the handler's own checks, as it calls run()).
  let round: Round | undefined;
  const args: JsonValue | undefined =
    spec.argumentsParam === undefined ? undefined : params?.[spec.argumentsParam];
  const call: MethodCall = {
    rt,
    shape: 'stateless',
    request,
    params,
    name,
    session: undefined,
    run: async (fn) => {
      if (spec.inputRequired === true)
        round ??= await beginRound(rt, scope.invocation, method, name ?? '', args, params);
      return guarded(rt, scope, request, declared, round, fn);
    },
  };
  const answer = await spec.handle(call);
  if (round === undefined) return completeResult(rt, answer, spec.cacheSurface);
  return finishRound(rt, round, answer, declared.clientCapabilities, spec.cacheSurface);
}
