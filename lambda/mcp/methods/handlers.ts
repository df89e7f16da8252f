/**
 * The handlers of the method table, shared by both protocol shapes. Each returns the method's own result
 * fields (or a handler's `input_required` answer, for the methods the table allows it) or throws an
 * `McpError`; the shape adds what differs (session binding, `resultType` and cache hints, the envelope).
 */
import { InvalidParamsError, JsonRpcCode, McpError } from '../errors.js';
import { supportedVersions } from '../http/shape.js';
import { isObject } from '../json/json-rpc.js';
import { promptArguments } from '../registries/index.js';
import { paginate } from '../registries/pagination.js';
import type { Runtime } from '../runtime.js';
import { SessionKey } from '../sessions/session-manager.js';
import { loggingLevels } from '../sse/logging-levels.js';
import { tasksExtension } from '../tasks/wire.js';
import type {
  CompletionRequest,
  CompletionResult,
  JsonObject,
  LoggingLevel,
  PromptResult,
} from '../types/index.js';
import type { MethodCall } from './scope.js';

/** Bounded echo of a caller-supplied name in an error message. */
function echo(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

/** `serverInfo` (initialize) and `_meta["io.modelcontextprotocol/serverInfo"]` (discover). */
export function serverInfo(rt: Runtime): JsonObject {
  const { name, version, title } = rt.options;
  return title === undefined ? { name, version } : { name, version, title };
}

/**
 * `server/discover`. Session-ful: the versions, capabilities and server identity. Stateless: tasks are the
 * `io.modelcontextprotocol/tasks` extension there, and the instructions travel here (no `initialize`).
 */
export function discover(call: Pick<MethodCall, 'rt' | 'shape'>): JsonObject {
  const { rt } = call;
  if (call.shape === 'sessionful') {
    return {
      supportedVersions: [...supportedVersions],
      capabilities: rt.capabilities(),
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo(rt) },
    };
  }
  const { tasks, ...capabilities } = rt.capabilities();
  if (tasks !== undefined) {
    const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
    capabilities.extensions = { ...extensions, [tasksExtension]: {} };
  }
  const fields: JsonObject = { supportedVersions: [...supportedVersions], capabilities };
  if (rt.options.instructions !== undefined) fields.instructions = rt.options.instructions;
  return fields;
}

/** One page of a registry listing under `key`, with `nextCursor` when there is more. */
export function list<T>(call: MethodCall, items: readonly T[], key: string): JsonObject {
  const page = paginate(items, call.params?.cursor, call.rt.options.pageSize);
  const fields: JsonObject = { [key]: page.items as unknown as JsonObject[] };
  if (page.nextCursor !== undefined) fields.nextCursor = page.nextCursor;
  return fields;
}

/**
 * `resources/read`. A missing resource is -32602, as the reference runtime pins in both shapes; the
 * stateless shape adds `data.uri` (SEP-2164: "error data SHOULD carry the uri").
 */
export async function readResource(call: MethodCall): Promise<JsonObject> {
  const uri = call.name ?? '';
  const handler = call.rt.resources.resolve(uri);
  if (handler === undefined) {
    if (call.shape === 'sessionful') throw new InvalidParamsError(`resource not found: ${echo(uri)}`);
    throw new McpError(JsonRpcCode.InvalidParams, `resource not found: ${echo(uri)}`, {
      data: { uri: echo(uri) },
    });
  }
  const read = await call.run((ctx) => handler(uri, ctx));
  const answer: unknown = Array.isArray(read) ? { contents: read } : read;
  if (!isObject(answer) || (answer.resultType !== 'input_required' && !Array.isArray(answer.contents)))
    throw new TypeError('resource handler returned no contents array');
  if (call.shape === 'stateless' || !Array.isArray(answer.contents)) return answer;
  const result: JsonObject = { contents: answer.contents };
  if (answer._meta !== undefined) result._meta = answer._meta;
  return result;
}

/** The wire fields of a complete prompt result (`messages` required); anything else is a handler bug. */
export function promptResult(result: PromptResult): JsonObject {
  if (typeof result !== 'object' || result === null || !Array.isArray(result.messages)) {
    throw new TypeError('prompt returned a result without messages');
  }
  const out: JsonObject = {};
  if (result.description !== undefined) out.description = result.description;
  out.messages = result.messages as unknown as JsonObject[];
  if (result._meta !== undefined) out._meta = result._meta;
  return out;
}

/** `prompts/get`: the prompt's required arguments are checked before its handler runs. */
export async function getPrompt(call: MethodCall): Promise<JsonObject> {
  const name = call.name ?? '';
  const prompt = call.rt.prompts.get(name);
  if (prompt === undefined) throw new InvalidParamsError(`prompt not found: ${echo(name)}`);
  const args = promptArguments(prompt.def, call.params?.arguments);
  const answer = await call.run((ctx) => prompt.handler(args, ctx));
  if (isObject(answer) && answer.resultType === 'input_required') return answer;
  return promptResult(answer);
}

/** The validated `completion/complete` request. */
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

/** `completion/complete`, through the prompt or resource hook the reference names. */
export async function complete(call: MethodCall): Promise<JsonObject> {
  const hooks = call.rt.options.completion;
  const req = completionRequest(call.params);
  const hook = req.ref.type === 'ref/prompt' ? hooks?.prompt : hooks?.resource;
  if (hook === undefined)
    throw new InvalidParamsError(`Invalid params: no completion handler for ${req.ref.type}`);
  const result = await call.run((ctx) => hook(req, ctx));
  return { completion: completionPayload(result) };
}

/** `logging/setLevel`: the application's hook, then the level kept on the session. */
export async function setLogLevel(call: MethodCall): Promise<JsonObject> {
  const level = call.params?.level;
  if (typeof level !== 'string' || !loggingLevels.includes(level as LoggingLevel)) {
    throw new InvalidParamsError('Invalid params: invalid logging level');
  }
  const hook = call.rt.options.loggingLevelHook;
  await call.run((ctx) => hook?.(level as LoggingLevel, ctx) ?? Promise.resolve());
  if (call.session !== undefined)
    await call.rt.sessions.update(call.session, { [SessionKey.logLevel]: level });
  return {};
}

/** `resources/subscribe` and `resources/unsubscribe`, through the application's hooks. */
export async function subscription(call: MethodCall, subscribe: boolean): Promise<JsonObject> {
  const hooks = call.rt.options.resourceSubscriptionHooks;
  const hook = subscribe ? hooks?.subscribe : hooks?.unsubscribe;
  const uri = call.name ?? '';
  if (hook !== undefined) await call.run((ctx) => hook(uri, ctx));
  return {};
}
