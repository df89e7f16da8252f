/**
 * Session-ful JSON-RPC methods other than `initialize` and `tools/call`. Each returns the `result` object
 * or throws an `McpError`; anything else thrown becomes a sanitized -32603 in the caller.
 */
import { InvalidParamsError, JsonRpcCode, McpError } from '../errors.js';
import { guardedCall } from '../tools/guarded-call.js';
import { isObject } from '../json/json-rpc.js';
import { paginate } from '../registries/pagination.js';
import { promptArguments } from '../registries/index.js';
import type { Runtime } from '../runtime.js';
import { SessionKey } from '../sessions/session-manager.js';
import { supportedVersions } from '../http/shape.js';
import type {
  CompletionRequest,
  CompletionResult,
  JsonObject,
  JsonRpcRequest,
  LoggingLevel,
  McpRequestContext,
  PromptResult,
  SessionRecord,
} from '../types.js';
import { requestContext } from './context.js';
import { loggingLevels } from './logging-levels.js';
import type { RequestScope } from './context.js';

function methodNotFound(method: string): McpError {
  return new McpError(JsonRpcCode.MethodNotFound, `Method not found: ${method}`);
}

/** Bounded echo of a caller-supplied name in an error message. */
function echo(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

/** `serverInfo` (initialize) and `_meta["io.modelcontextprotocol/serverInfo"]` (discover). */
export function serverInfo(rt: Runtime): JsonObject {
  const { name, version, title } = rt.options;
  return title === undefined ? { name, version } : { name, version, title };
}

/** The session-ful `server/discover` result (no 2026-07-28 `resultType`/cache fields). */
export function discoverResult(rt: Runtime): JsonObject {
  return {
    supportedVersions: [...supportedVersions],
    capabilities: rt.capabilities(),
    _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo(rt) },
  };
}

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

function list<T>(rt: Runtime, items: readonly T[], params: JsonObject | undefined, key: string): JsonObject {
  const page = paginate(items, params?.cursor, rt.options.pageSize);
  const result: JsonObject = { [key]: page.items as unknown as JsonObject[] };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}

function requireString(params: JsonObject | undefined, key: string): string {
  const value = params?.[key];
  if (typeof value !== 'string' || value === '')
    throw new InvalidParamsError(`Invalid params: ${key} is required`);
  return value;
}

export function promptResult(result: PromptResult): JsonObject {
  if (typeof result !== 'object' || result === null || !Array.isArray(result.messages)) {
    throw new TypeError('prompt returned a result without messages');
  }
  if (result.resultType === 'input_required') throw new TypeError('input_required is not session-ful');
  const out: JsonObject = {};
  if (result.description !== undefined) out.description = result.description;
  out.messages = result.messages as unknown as JsonObject[];
  if (result._meta !== undefined) out._meta = result._meta;
  return out;
}

export function completionRequest(params: JsonObject | undefined): CompletionRequest {
  const ref = params?.ref;
  const argument = params?.argument;
  if (
    !isObject(ref) ||
    !isObject(argument) ||
    typeof argument.name !== 'string' ||
    typeof argument.value !== 'string'
  ) {
    throw new InvalidParamsError('Invalid params: ref and argument are required');
  }
  const context = isObject(params?.context) ? (params.context as CompletionRequest['context']) : undefined;
  const base = { argument: { name: argument.name, value: argument.value }, ...(context && { context }) };
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string')
    return { ref: { type: 'ref/prompt', name: ref.name }, ...base };
  if (ref.type === 'ref/resource' && typeof ref.uri === 'string')
    return { ref: { type: 'ref/resource', uri: ref.uri }, ...base };
  throw new InvalidParamsError('Invalid params: unsupported completion reference');
}

/** The `completion` object of a result: at most 100 values (MCP), `hasMore` when the hook said so or we cut. */
export function completionPayload(result: CompletionResult): JsonObject {
  const values = Array.isArray(result.values) ? result.values.slice(0, 100) : [];
  const completion: JsonObject = { values };
  if (result.total !== undefined) completion.total = result.total;
  if (result.hasMore !== undefined || values.length < result.values.length)
    completion.hasMore = result.hasMore ?? true;
  return completion;
}

/** Dispatches one session-ful request (not initialize, not tools/call). */
export async function callMethod(
  rt: Runtime,
  scope: RequestScope,
  session: SessionRecord,
  request: JsonRpcRequest,
): Promise<JsonObject> {
  const { method, params } = request;
  const enabled = rt.options.capabilities;
  const timeout = rt.options.toolTimeoutMs;
  switch (method) {
    case 'ping':
      return {};
    case 'server/discover':
      return discoverResult(rt);
    case 'tools/list':
      if (enabled.tools === false) break;
      return list(rt, rt.tools.definitions(), params, 'tools');
    case 'resources/list':
      if (enabled.resources === false) break;
      return list(rt, rt.resources.definitions(), params, 'resources');
    case 'resources/templates/list':
      if (enabled.resources === false) break;
      return list(rt, rt.resources.templates(), params, 'resourceTemplates');
    case 'prompts/list':
      if (enabled.prompts === false) break;
      return list(rt, rt.prompts.definitions(), params, 'prompts');
    case 'resources/read': {
      if (enabled.resources === false) break;
      const uri = requireString(params, 'uri');
      const handler = rt.resources.resolve(uri);
      // -32602 for a missing resource, as the reference runtime pins (mcp-method-surface "2026-07-28 protocol errors").
      if (handler === undefined) throw new InvalidParamsError(`resource not found: ${echo(uri)}`);
      const read = await withRequestSignal(rt, scope, session, request, timeout, (ctx) => handler(uri, ctx));
      if (Array.isArray(read)) return { contents: read as unknown as JsonObject[] };
      if (!isObject(read) || !Array.isArray(read.contents)) {
        throw new TypeError('resource handler returned no contents array');
      }
      if (read.resultType === 'input_required') throw new TypeError('input_required is not session-ful');
      const result: JsonObject = { contents: read.contents };
      if (read._meta !== undefined) result._meta = read._meta;
      return result;
    }
    case 'prompts/get': {
      if (enabled.prompts === false) break;
      const name = requireString(params, 'name');
      const prompt = rt.prompts.get(name);
      if (prompt === undefined) throw new InvalidParamsError(`prompt not found: ${echo(name)}`);
      const args = promptArguments(prompt.def, params?.arguments);
      return promptResult(
        await withRequestSignal(rt, scope, session, request, timeout, (ctx) => prompt.handler(args, ctx)),
      );
    }
    case 'completion/complete': {
      const hooks = rt.options.completion;
      if (enabled.completions === false || (hooks?.prompt === undefined && hooks?.resource === undefined))
        break;
      const req = completionRequest(params);
      const hook = req.ref.type === 'ref/prompt' ? hooks.prompt : hooks.resource;
      if (hook === undefined)
        throw new InvalidParamsError(`Invalid params: no completion handler for ${req.ref.type}`);
      const result = await withRequestSignal(rt, scope, session, request, timeout, (ctx) => hook(req, ctx));
      return { completion: completionPayload(result) };
    }
    case 'logging/setLevel': {
      if (!rt.loggingEnabled()) break;
      const level = params?.level;
      if (typeof level !== 'string' || !loggingLevels.includes(level as LoggingLevel)) {
        throw new InvalidParamsError('Invalid params: invalid logging level');
      }
      const hook = rt.options.loggingLevelHook;
      await withRequestSignal(
        rt,
        scope,
        session,
        request,
        timeout,
        (ctx) => hook?.(level as LoggingLevel, ctx) ?? Promise.resolve(),
      );
      await rt.sessions.update(session, { [SessionKey.logLevel]: level });
      return {};
    }
    case 'resources/subscribe':
    case 'resources/unsubscribe': {
      const hooks = rt.options.resourceSubscriptionHooks;
      if (hooks?.subscribe === undefined || hooks.unsubscribe === undefined) break;
      const uri = requireString(params, 'uri');
      const hook = method === 'resources/subscribe' ? hooks.subscribe : hooks.unsubscribe;
      await withRequestSignal(rt, scope, session, request, timeout, (ctx) => hook(uri, ctx));
      return {};
    }
    default:
      break;
  }
  throw methodNotFound(method);
}
