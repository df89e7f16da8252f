/** Builds the `McpRequestContext` handlers see in the 2026-07-28 stateless shape. */
import type { RequestScope } from '../methods/index.js';
import { statelessVersion } from '../http/shape.js';
import type { JsonRpcId, McpRequestContext } from '../types/index.js';
import type { Round } from './rounds.js';
import type { RequestMeta } from './validate.js';

/** A context for one stateless request; `round` adds the multi-round inputs when the method has them. */
export function statelessContext(
  scope: RequestScope,
  requestId: JsonRpcId,
  declared: RequestMeta,
  signal: AbortSignal,
  round?: Round,
): McpRequestContext {
  const { invocation } = scope;
  const ctx: McpRequestContext = {
    shape: 'stateless',
    protocolVersion: statelessVersion,
    requestId,
    signal,
    meta: declared.meta,
    accepts: scope.accepts,
    clientCapabilities: declared.clientCapabilities,
  };
  if (invocation.deadline !== undefined) ctx.deadline = invocation.deadline;
  if (invocation.principal !== undefined) ctx.principal = invocation.principal;
  if (round?.inputResponses !== undefined) ctx.inputResponses = round.inputResponses;
  if (round?.requestState !== undefined) ctx.requestState = round.requestState;
  return ctx;
}
