/**
 * The stateless subset other than `tools/call` (mcp-method-surface: server/discover, tools/list,
 * resources/list, resources/read, resources/templates/list, completion/complete, prompts/list,
 * prompts/get). `ping`, `logging/setLevel`, `initialize`, task methods, subscriptions and anything else
 * are -32601 (HTTP 404). Each returns the wire `result` or throws an `McpError`.
 */
import { InvalidParamsError, JsonRpcCode, McpError } from '../errors.js';
import { completionPayload, completionRequest, promptResult } from '../dispatch/methods.js';
import type { RequestScope } from '../dispatch/index.js';
import { guardedCall } from '../tools/guarded-call.js';
import { isObject } from '../json/json-rpc.js';
import { paginate } from '../registries/pagination.js';
import { promptArguments } from '../registries/index.js';
import type { CacheSurface, Runtime } from '../runtime.js';
import { supportedVersions } from '../http/shape.js';
import type { JsonObject, JsonRpcRequest, McpRequestContext } from '../types.js';
import { statelessContext } from './context.js';
import { completeResult } from './results.js';
import { beginRound, finishRound } from './rounds.js';
import type { Round } from './rounds.js';
import type { RequestMeta } from './validate.js';

/** -32601 "Method not found: <method>" (HTTP 404 in this shape). */
export function methodNotFound(method: string): McpError {
  return new McpError(JsonRpcCode.MethodNotFound, `Method not found: ${method}`);
}

function echo(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

/** -32602 with `data.uri` (SEP-2164: "error data SHOULD carry the uri"), bounded like the message. */
function resourceNotFound(uri: string): McpError {
  return new McpError(JsonRpcCode.InvalidParams, `resource not found: ${echo(uri)}`, {
    data: { uri: echo(uri) },
  });
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

function list<T>(
  rt: Runtime,
  items: readonly T[],
  params: JsonObject | undefined,
  key: string,
  surface: CacheSurface,
): JsonObject {
  const page = paginate(items, params?.cursor, rt.options.pageSize);
  const fields: JsonObject = { [key]: page.items as unknown as JsonObject[] };
  if (page.nextCursor !== undefined) fields.nextCursor = page.nextCursor;
  return completeResult(rt, fields, surface);
}

/** The version-aware discover result: no `tasks` capability in this shape (no task extension here). */
function discover(rt: Runtime): JsonObject {
  const { tasks: _tasks, ...capabilities } = rt.capabilities();
  const fields: JsonObject = { supportedVersions: [...supportedVersions], capabilities };
  if (rt.options.instructions !== undefined) fields.instructions = rt.options.instructions;
  return completeResult(rt, fields, 'serverDiscover');
}

/** Dispatches one stateless request other than tools/call. */
export async function callStatelessMethod(
  rt: Runtime,
  scope: RequestScope,
  request: JsonRpcRequest,
  declared: RequestMeta,
  name: string | undefined,
): Promise<JsonObject> {
  const { method, params } = request;
  const enabled = rt.options.capabilities;
  switch (method) {
    case 'server/discover':
      return discover(rt);
    case 'tools/list':
      if (enabled.tools === false) break;
      return list(rt, rt.tools.definitions(), params, 'tools', 'toolsList');
    case 'resources/list':
      if (enabled.resources === false) break;
      return list(rt, rt.resources.definitions(), params, 'resources', 'resourcesList');
    case 'resources/templates/list':
      if (enabled.resources === false) break;
      return list(rt, rt.resources.templates(), params, 'resourceTemplates', 'resourceTemplatesList');
    case 'prompts/list':
      if (enabled.prompts === false) break;
      return list(rt, rt.prompts.definitions(), params, 'prompts', 'promptsList');
    case 'resources/read': {
      if (enabled.resources === false || name === undefined) break;
      const handler = rt.resources.resolve(name);
      // -32602 for a missing resource, as the reference runtime pins in both shapes.
      if (handler === undefined) throw resourceNotFound(name);
      const round = await beginRound(rt, scope.invocation, method, name, undefined, params);
      const read = await guarded(rt, scope, request, declared, round, (ctx) => handler(name, ctx));
      const answer: JsonObject = Array.isArray(read) ? { contents: read } : (read as unknown as JsonObject);
      if (isObject(answer) && answer.resultType !== 'input_required' && !Array.isArray(answer.contents)) {
        throw new TypeError('resource handler returned no contents array');
      }
      return finishRound(rt, round, answer, declared.clientCapabilities, 'resourcesRead');
    }
    case 'prompts/get': {
      if (enabled.prompts === false || name === undefined) break;
      const prompt = rt.prompts.get(name);
      if (prompt === undefined) throw new InvalidParamsError(`prompt not found: ${echo(name)}`);
      const args = promptArguments(prompt.def, params?.arguments);
      const round = await beginRound(rt, scope.invocation, method, name, params?.arguments, params);
      const answer = await guarded(rt, scope, request, declared, round, (ctx) => prompt.handler(args, ctx));
      // promptResult validates the complete shape (messages array) and keeps only prompt fields.
      const checked =
        isObject(answer) && answer.resultType === 'input_required'
          ? answer
          : promptResult({ ...answer, resultType: 'complete' });
      return finishRound(rt, round, checked, declared.clientCapabilities);
    }
    case 'completion/complete': {
      const hooks = rt.options.completion;
      if (enabled.completions === false || (hooks?.prompt === undefined && hooks?.resource === undefined))
        break;
      const req = completionRequest(params);
      const hook = req.ref.type === 'ref/prompt' ? hooks.prompt : hooks.resource;
      if (hook === undefined)
        throw new InvalidParamsError(`Invalid params: no completion handler for ${req.ref.type}`);
      const result = await guarded(rt, scope, request, declared, undefined, (ctx) => hook(req, ctx));
      return completeResult(rt, { completion: completionPayload(result) });
    }
    default:
      break;
  }
  throw methodNotFound(method);
}
