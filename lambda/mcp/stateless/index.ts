/**
 * The 2026-07-28 stateless dispatcher (mcp-method-surface "Transport + endpoint", "2026-07-28 protocol
 * errors"; mcp-2026-notes §1). Shape detection (shape.ts) has already checked the protocol header
 * against `_meta`; this validates the rest in a fixed order and dispatches the stateless subset. No
 * session is read or written here: `Mcp-Session-Id` is ignored.
 */
import { JsonRpcCode, McpError, outageOf, toWireError } from '../errors.js';
import type { RequestScope } from '../methods/index.js';
import type { Responder } from '../http/http-responses.js';
import { classify, errorJson, resultJson } from '../json/json-rpc.js';
import { describeError } from '../logger.js';
import type { Runtime } from '../runtime.js';
import type { JsonObject } from '../types/index.js';
import { methods } from '../methods/index.js';
import { callStatelessTaskMethod } from './tasks.js';
import { callStatelessMethod } from './methods.js';
import { callStatelessTool } from './tools-call.js';
import { statusOf } from './errors.js';
import { checkEnvelope, checkRouting } from './validate.js';

export { RequestStateGuard, requestDigest, refusedStateMessage } from './request-state.js';
export { decodeSentinel } from './headers.js';
export { StatelessRequestError, statusOf } from './errors.js';

/** What the stateless dispatcher receives. */
export interface StatelessInput {
  rt: Runtime;
  respond: Responder;
  scope: RequestScope;
  headers: Headers;
}

/** Answers one stateless POST whose body is a single JSON object. */
export async function handleStateless(input: StatelessInput, value: JsonObject): Promise<Response> {
  const { rt, respond, headers } = input;
  const message = classify(value);
  if (message.kind === 'invalid') return respond.rpcError(400, message.id, message.error);
  if (message.kind === 'response') {
    // 2026-07-28 clients post only requests and notifications (mcp-2026-notes §1.4).
    const error = new McpError(
      JsonRpcCode.InvalidRequest,
      'Invalid Request: JSON-RPC responses are not accepted in 2026-07-28',
    );
    return respond.rpcError(400, message.id, error);
  }
  const { method, params } = message.message;
  const id = message.kind === 'request' ? message.message.id : null;
  const declared = checkEnvelope(headers, method, params);
  if (declared instanceof McpError) return respond.rpcError(statusOf(declared), id, declared);
  // Notifications change no session in this shape (there is none): accepted once valid. A cancellation
  // names one of the caller's own requests, which runs in another invocation: it leaves a marker that only
  // a call of the same principal with that id honours (sessions/cancellations.ts).
  if (message.kind === 'notification') {
    const requestId = params?.requestId;
    if (
      method === 'notifications/cancelled' &&
      (typeof requestId === 'string' || typeof requestId === 'number')
    )
      await rt.cancellations.cancel({ principal: input.scope.invocation.principal }, requestId);
    return respond.accepted();
  }
  const request = message.message;
  if (methods.get(method)?.task === true) {
    try {
      const result = await callStatelessTaskMethod(rt, headers, request, declared.clientCapabilities, {
        ...(input.scope.invocation.principal !== undefined && {
          principal: input.scope.invocation.principal,
        }),
      });
      return respond.json(200, resultJson(request.id, result));
    } catch (error) {
      // A task store that cannot answer gets the one outage answer (503, Retry-After), as other stores do.
      const outage = outageOf(error);
      if (outage !== undefined) throw outage;
      if (!(error instanceof McpError))
        rt.logger.error('task method failed', { method, ...describeError(error) });
      const wire = toWireError(error);
      return respond.json(statusOf(wire), errorJson(request.id, wire));
    }
  }
  const routing = checkRouting(headers, method, params);
  if (routing instanceof McpError) return respond.rpcError(statusOf(routing), id, routing);
  try {
    if (method === 'tools/call' && routing.name !== undefined) {
      return await callStatelessTool({ ...input, request, declared, name: routing.name });
    }
    const result = await callStatelessMethod(rt, input.scope, request, declared, routing.name);
    return respond.json(200, resultJson(request.id, result));
  } catch (error) {
    const outage = outageOf(error);
    if (outage !== undefined) throw outage;
    if (!(error instanceof McpError)) rt.logger.error('method failed', { method, ...describeError(error) });
    const wire = toWireError(error);
    return respond.json(statusOf(wire), errorJson(request.id, wire));
  }
}
