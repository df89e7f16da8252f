/**
 * POST in the session-ful shape (2025-11-25 / 2025-06-18 / 2025-03-26): `initialize` and
 * `server/discover` work without a session; everything else needs a live session bound to the caller.
 * Ordinary results and method errors are HTTP 200; notifications and client responses are 202.
 */
import { JsonRpcCode, McpError, RequestCancelledError, outageOf, toWireError } from '../errors.js';
import type { Responder } from '../http/http-responses.js';
import { classify, errorJson, isObject, notAnObjectMessage, resultJson } from '../json/json-rpc.js';
import { describeError } from '../logger.js';
import type { Runtime } from '../runtime.js';
import { SessionKey } from '../sessions/session-manager.js';
import { sessionfulVersions } from '../http/shape.js';
import type {
  JsonObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonValue,
  SessionRecord,
} from '../types/index.js';
import { methods, serverInfo } from '../methods/index.js';
import type { RequestScope } from '../methods/index.js';
import { callMethod } from './methods.js';
import { startEarlyPreflight } from './early-preflight.js';
import type { EarlyPreflight } from './early-preflight.js';
import { callTool } from './tools-call.js';
import { streamTaskResult } from './task-result-stream.js';
import { BatchBudget, mapBounded, tooManyElements } from './batch-limits.js';
import type { BatchPart } from './batch-limits.js';

/** The parts of one HTTP request the session-ful dispatcher needs. */
export interface SessionfulInput {
  rt: Runtime;
  respond: Responder;
  scope: RequestScope;
  headers: Headers;
  /** `mcp-protocol-version` when present (already known to be a session-ful version). */
  headerVersion: string | undefined;
}

/** The batch-capable legacy version (mcp-method-surface "Other transport notes"). */
const batchVersion = '2025-03-26';

type SessionResult = { ok: true; session: SessionRecord } | { ok: false; response: Response };

/**
 * Resolves the request's session: missing header → 400, unknown/expired/foreign principal → 404 (body
 * pinned by fixture sessions-lifecycle-create-delete-reject.json), version header ≠ session → 400.
 */
export async function resolveSession(input: SessionfulInput, id: JsonRpcId | null): Promise<SessionResult> {
  const { rt, respond, headers } = input;
  const sessionId = headers.get('mcp-session-id');
  if (sessionId === null || sessionId === '') {
    const error = new McpError(JsonRpcCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required');
    return { ok: false, response: respond.rpcError(400, id, error) };
  }
  const session = await rt.sessions.load(sessionId, input.scope.invocation.principal?.subject);
  if (session === undefined) return { ok: false, response: respond.plainError(404, 'session not found') };
  const version = session.data[SessionKey.protocolVersion] ?? sessionfulVersions[0];
  if (input.headerVersion !== undefined && input.headerVersion !== version) {
    const error = new McpError(
      JsonRpcCode.InvalidRequest,
      'Bad Request: MCP-Protocol-Version does not match the session',
    );
    return { ok: false, response: respond.rpcError(400, id, error) };
  }
  return { ok: true, session };
}

/** Maps a dispatch failure to a wire error; store outages propagate so the server answers 503. */
function wireError(rt: Runtime, error: unknown, method: string): McpError {
  const outage = outageOf(error);
  if (outage !== undefined) throw outage;
  if (!(error instanceof McpError)) rt.logger.error('method failed', { method, ...describeError(error) });
  return toWireError(error);
}

async function initialize(input: SessionfulInput, request: JsonRpcRequest): Promise<Response> {
  const { rt, respond, scope } = input;
  const params = request.params ?? {};
  const requested = params.protocolVersion;
  // Unknown versions get a counter-proposal of the latest session-ful version (MCP lifecycle).
  const version =
    typeof requested === 'string' && sessionfulVersions.includes(requested)
      ? requested
      : (sessionfulVersions[0] ?? '');
  const data: Record<string, string> = { [SessionKey.protocolVersion]: version };
  if (isObject(params.capabilities) && Object.keys(params.capabilities).length > 0) {
    data[SessionKey.clientCapabilities] = JSON.stringify(params.capabilities);
  }
  const principal = scope.invocation.principal;
  if (principal !== undefined) data[SessionKey.principal] = principal.subject;
  const session = await rt.sessions.create(data);
  const result: JsonObject = {
    protocolVersion: version,
    capabilities: rt.capabilities(),
    serverInfo: serverInfo(rt),
  };
  if (rt.options.instructions !== undefined) result.instructions = rt.options.instructions;
  return respond.json(200, resultJson(request.id, result), { 'mcp-session-id': session.sessionId });
}

async function notify(
  input: SessionfulInput,
  session: SessionRecord,
  message: JsonRpcNotification,
): Promise<void> {
  const { rt } = input;
  if (message.method === 'notifications/initialized') {
    if (session.data[SessionKey.initialized] !== 'true')
      await rt.sessions.update(session, { [SessionKey.initialized]: 'true' });
  } else if (message.method === 'notifications/cancelled') {
    const requestId = message.params?.requestId;
    // Running here: cancelled at once. Otherwise the call runs in another execution environment (each POST
    // is its own Lambda invocation) or has finished: a marker reaches the first and is ignored by the second.
    if (
      (typeof requestId === 'string' || typeof requestId === 'number') &&
      !rt.inFlight.cancel(session.sessionId, requestId)
    ) {
      const scope = { principal: input.scope.invocation.principal, sessionId: session.sessionId };
      await rt.cancellations.cancel(scope, requestId);
    }
  }
  // Other notifications are accepted and ignored (MCP: receivers need not act on every notification).
}

/** One request of a session; returns the serialised response or an SSE response. */
async function request(
  input: SessionfulInput,
  session: SessionRecord,
  message: JsonRpcRequest,
  allowStream: boolean,
  early?: EarlyPreflight,
): Promise<string | Response> {
  const { rt } = input;
  try {
    if (message.method === 'tools/call') {
      const answer = await callTool(rt, input.scope, input.respond, session, message, allowStream, early);
      return answer.kind === 'json' ? answer.body : answer.response;
    }
    if (message.method === 'tasks/result') {
      const answer = await streamTaskResult(rt, input.scope, input.respond, session, message, allowStream);
      if (answer !== undefined) return answer.kind === 'json' ? answer.body : answer.response;
    }
    return resultJson(message.id, await callMethod(rt, input.scope, session, message));
  } catch (error) {
    return errorJson(message.id, wireError(rt, error, message.method));
  }
}

/** Handles one JSON-RPC object. */
export async function handleSingle(input: SessionfulInput, value: JsonObject): Promise<Response> {
  const { rt, respond } = input;
  const message = classify(value);
  if (message.kind === 'invalid') return respond.rpcError(200, message.id, message.error);
  if (message.kind === 'request' && message.message.method === 'initialize')
    return initialize(input, message.message);
  if (message.kind === 'request' && methods.get(message.message.method)?.sessionless === true) {
    const { id } = message.message;
    return respond.json(200, resultJson(id, await callMethod(rt, input.scope, undefined, message.message)));
  }
  // The session read and a streamed call's session-independent checks (the BOS grant read) do not depend
  // on each other: both run now, and the session's verdict still comes first (early-preflight.ts).
  const sessionId = input.headers.get('mcp-session-id');
  const early =
    message.kind === 'request' && sessionId !== null && sessionId !== ''
      ? startEarlyPreflight({ ...input, sessionId }, message.message)
      : undefined;
  const drop = (): void => {
    void early?.then((started) => started?.controller.abort(new RequestCancelledError('cancelled')));
  };
  let resolved: SessionResult;
  try {
    resolved = await resolveSession(
      input,
      message.kind === 'notification' ? null : message.kind === 'response' ? message.id : message.message.id,
    );
  } catch (error) {
    drop();
    throw error;
  }
  if (!resolved.ok) {
    drop();
    return resolved.response;
  }
  const { session } = resolved;
  if (message.kind === 'notification') {
    await notify(input, session, message.message);
    return respond.accepted();
  }
  if (message.kind === 'response') {
    // The waiting tool may run in another instance: route() hands the reply over through the store.
    await rt.clientRequests.route(session.sessionId, message.id, message.result, message.error);
    return respond.accepted();
  }
  const out = await request(input, session, message.message, true, await early);
  return out instanceof Response ? out : respond.json(200, out);
}

/** Handles a batch: only for sessions negotiated at 2025-03-26, never containing `initialize`. */
export async function handleBatch(input: SessionfulInput, values: JsonValue[]): Promise<Response> {
  const { rt, respond } = input;
  const rejected = (): Response =>
    respond.rpcError(200, null, new McpError(JsonRpcCode.ParseError, notAnObjectMessage));
  if (input.headers.get('mcp-session-id') === null) return rejected();
  const resolved = await resolveSession(input, null);
  if (!resolved.ok) return resolved.response;
  const { session } = resolved;
  if (session.data[SessionKey.protocolVersion] !== batchVersion) return rejected();
  if (values.length === 0)
    return respond.rpcError(
      200,
      null,
      new McpError(JsonRpcCode.InvalidRequest, 'Invalid Request: empty batch'),
    );
  const { maxBatchElements, batchConcurrency, maxBatchResponseBytes } = rt.options;
  if (values.length > maxBatchElements) return respond.rpcError(200, null, tooManyElements(maxBatchElements));
  const budget = new BatchBudget(maxBatchResponseBytes);
  const parts = await mapBounded(values, batchConcurrency, async (value): Promise<BatchPart | undefined> => {
    const message = classify(value);
    switch (message.kind) {
      case 'invalid':
        return { id: message.id, text: errorJson(message.id, message.error) };
      case 'notification':
        await notify(input, session, message.message);
        return undefined;
      case 'response':
        await rt.clientRequests.route(session.sessionId, message.id, message.result, message.error);
        return undefined;
      case 'request': {
        const { id } = message.message;
        if (message.message.method === 'initialize') {
          const error = new McpError(
            JsonRpcCode.InvalidRequest,
            'Invalid Request: initialize must not be batched',
          );
          return { id, text: errorJson(id, error) };
        }
        if (!budget.open) return { id, text: undefined };
        const out = await request(input, session, message.message, false);
        if (out instanceof Response) return undefined;
        budget.observe(out);
        return { id, text: out };
      }
    }
  });
  const bodies = budget.assemble(parts.filter((part): part is BatchPart => part !== undefined));
  return bodies.length === 0 ? respond.accepted() : respond.json(200, `[${bodies.join(',')}]`);
}
