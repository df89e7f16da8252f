/** Builds the `McpRequestContext` handlers see in the session-ful shape. */
import { isObject } from '../json/json-rpc.js';
import { SessionKey } from '../sessions/session-manager.js';
import type { RequestScope } from '../methods/scope.js';
import type { JsonObject, JsonRpcId, McpRequestContext, SessionRecord } from '../types/index.js';

const emptyMeta: JsonObject = Object.freeze({});

/** A context for one JSON-RPC request of a session. */
export function requestContext(
  scope: RequestScope,
  session: SessionRecord,
  requestId: JsonRpcId,
  params: JsonObject | undefined,
  signal: AbortSignal,
): McpRequestContext {
  const meta = params !== undefined && isObject(params._meta) ? params._meta : emptyMeta;
  const { invocation } = scope;
  let capabilities: JsonObject | undefined;
  return {
    shape: 'sessionful',
    protocolVersion: session.data[SessionKey.protocolVersion] ?? '2025-11-25',
    sessionId: session.sessionId,
    requestId,
    signal,
    ...(invocation.deadline !== undefined && { deadline: invocation.deadline }),
    ...(invocation.principal !== undefined && { principal: invocation.principal }),
    meta,
    accepts: scope.accepts,
    // Parsed lazily: most handlers never look at the client's capabilities.
    get clientCapabilities(): JsonObject {
      capabilities ??= parseCapabilities(session.data[SessionKey.clientCapabilities]);
      return capabilities;
    },
  };
}

function parseCapabilities(raw: string | undefined): JsonObject {
  if (raw === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
