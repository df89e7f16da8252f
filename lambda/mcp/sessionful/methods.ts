/**
 * Session-ful JSON-RPC methods other than `initialize` and `tools/call`, dispatched through the method table
 * (`methods/table.ts`). What this shape adds: the session each call is bound to, its in-flight entry for
 * `notifications/cancelled`, and results without the 2026-07-28 fields. Each returns the `result` object or
 * throws an `McpError`; anything else thrown becomes a sanitized -32603 in the caller.
 */
import { InvalidParamsError, JsonRpcCode, McpError } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import { servedMethod } from '../methods/index.js';
import type { MethodCall, RequestScope } from '../methods/index.js';
import type { Runtime } from '../runtime.js';
import { guardedCall } from '../tools/guarded-call.js';
import type { JsonObject, JsonRpcRequest, McpRequestContext, SessionRecord } from '../types/index.js';
import { requestContext } from './context.js';
import { callSessionfulTaskMethod } from './tasks.js';

/**
 * Runs a handler with a request-scoped signal that `notifications/cancelled`, disconnect, the timeout and
 * the deadline can fire.
 */
export async function withRequestSignal<T>(
  rt: Runtime,
  scope: RequestScope,
  session: SessionRecord,
  request: JsonRpcRequest,
  timeoutMs: number,
  fn: (ctx: McpRequestContext) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const untrack = rt.inFlight.add(session.sessionId, request.id, controller);
  const ctx = requestContext(scope, session, request.id, request.params, controller.signal);
  try {
    return await guardedCall(() => fn(ctx), {
      controller,
      timeoutMs,
      deadline: scope.invocation.deadline,
      deadlineReserveMs: rt.options.deadlineReserveMs,
      external: scope.invocation.signal,
      clock: rt.clock,
      logger: rt.logger,
    });
  } finally {
    untrack();
  }
}

/**
 * Dispatches one session-ful request (not initialize, not tools/call). `session` is undefined only for the
 * methods the table marks `sessionless`.
 */
export async function callMethod(
  rt: Runtime,
  scope: RequestScope,
  session: SessionRecord | undefined,
  request: JsonRpcRequest,
): Promise<JsonObject> {
  const { method, params } = request;
  const spec = servedMethod(rt, method, 'sessionful');
  if (spec?.task === true && session !== undefined && rt.tasks !== undefined) {
    const ctx = requestContext(scope, session, request.id, params, new AbortController().signal);
    return callSessionfulTaskMethod(rt, rt.tasks, request, ctx);
  }
  if (spec?.handle === undefined)
    throw new McpError(JsonRpcCode.MethodNotFound, `Method not found: ${method}`);
  let name: string | undefined;
  if (spec.nameParam !== undefined) {
    const value = params?.[spec.nameParam];
    if (typeof value !== 'string' || value === '')
      throw new InvalidParamsError(`Invalid params: ${spec.nameParam} is required`);
    name = value;
  }
  const call: MethodCall = {
    rt,
    shape: 'sessionful',
    request,
    params,
    name,
    session,
    run: (fn) => {
      if (session === undefined) throw new TypeError(`${method} needs a session`);
      return withRequestSignal(rt, scope, session, request, rt.options.toolTimeoutMs, fn);
    },
  };
  const result = await spec.handle(call);
  // Multi-round input is a 2026-07-28 feature: a handler that asks for it here is a bug (-32603).
  if (isObject(result) && result.resultType === 'input_required')
    throw new TypeError('input_required is not session-ful');
  return result;
}
