/**
 * A streamed session-ful `tools/call` whose tool declares `sessionIndependentPreflight` starts its
 * `beforeStream` hook while the request's session is still being read, so the hook's own lookup (the BOS
 * grant read, one DynamoDB round trip) overlaps the session read instead of following it. Nothing is
 * decided early: the session is checked first and its failure answers exactly as before (the early
 * outcome is dropped); `callTool` then runs its checks in the usual order and only takes the hook's
 * outcome in place of calling the hook itself.
 */
import { isObject } from '../json/json-rpc.js';
import type { Runtime } from '../runtime.js';
import type { JsonRpcRequest, McpRequestContext, SessionRecord } from '../types/index.js';
import { requestContext } from './context.js';
import type { RequestScope } from '../methods/index.js';

/** A `beforeStream` hook already running for one request. */
export interface EarlyPreflight {
  /** The request it was started for (`callTool` takes it only for the same request object). */
  readonly request: JsonRpcRequest;
  /** The call's abort controller: the hook saw its signal, so timeouts and cancellation reach it. */
  readonly controller: AbortController;
  /** The hook's promise, as `beforeStream` returned it (a rejection is observed, never unhandled). */
  readonly outcome: Promise<unknown>;
}

/** What the early start needs to know about the HTTP request. */
export interface EarlyPreflightInput {
  rt: Runtime;
  scope: RequestScope;
  /** `Mcp-Session-Id`: the session being read. */
  sessionId: string;
  /**
   * `MCP-Protocol-Version`. Without it the call's version comes from the session record, which is not
   * read yet, so nothing starts early.
   */
  headerVersion: string | undefined;
}

/**
 * Starts the hook of `request` when it is a `tools/call` that would stream and whose tool opted in, with
 * the same checks `callTool` makes first (tool known, arguments an object that validates, no task).
 * Resolves to undefined when nothing was started; never rejects.
 */
export async function startEarlyPreflight(
  input: EarlyPreflightInput,
  request: JsonRpcRequest,
): Promise<EarlyPreflight | undefined> {
  const { rt, scope, headerVersion } = input;
  if (request.method !== 'tools/call' || headerVersion === undefined) return undefined;
  const params = request.params;
  const entry = typeof params?.name === 'string' ? rt.tools.get(params.name) : undefined;
  if (entry === undefined || !entry.streaming || rt.options.capabilities.tools === false) return undefined;
  const hook = entry.options.beforeStream;
  const rawArgs = params?.arguments ?? {};
  if (hook === undefined || entry.options.sessionIndependentPreflight !== true) return undefined;
  if (!isObject(rawArgs) || params?.task !== undefined) return undefined;
  try {
    if ((await entry.validate(rawArgs)) !== undefined) return undefined;
  } catch {
    // `callTool` validates again once the session is known and reports the failure in its usual place.
    return undefined;
  }
  const controller = new AbortController();
  // The record being read, as far as the request states it: the hook promised not to look further.
  const provisional: SessionRecord = {
    sessionId: input.sessionId,
    createdAt: 0,
    expiresAt: 0,
    data: { protocolVersion: headerVersion },
  };
  const ctx: McpRequestContext = requestContext(scope, provisional, request.id, params, controller.signal);
  const shouldStream =
    entry.options.shouldStream ?? ((c: McpRequestContext) => c.accepts('text/event-stream'));
  if (!shouldStream(ctx)) return undefined;
  const outcome = (async () => hook(rawArgs, ctx))();
  // Dropped when the session check fails; `preflight` observes it otherwise.
  outcome.catch(() => undefined);
  return { request, controller, outcome };
}
