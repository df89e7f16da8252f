/**
 * The 2026-07-28 tasks extension in the stateless shape (SEP-2663): the per-call decision whether a
 * `tools/call` becomes a task, and `tasks/get`, `tasks/update`, `tasks/cancel`. `tasks/result` and
 * `tasks/list` were removed by the extension (-32601). Every task method needs the extension declared in
 * the request's client capabilities (-32021 otherwise) and `Mcp-Name` equal to `params.taskId` (-32020).
 */
import { InvalidParamsError, JsonRpcCode, McpError } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import { servedMethod } from '../methods/index.js';
import type { ToolEntry } from '../registries/tools.js';
import type { Runtime } from '../runtime.js';
import { checkNameHeader } from './headers.js';
import { completeResult, missingCapabilityError } from './results.js';
import type { JsonObject, JsonRpcRequest, McpRequestContext } from '../types/index.js';
import { ownerOf } from '../tasks/task-service.js';
import type { TaskService } from '../tasks/task-service.js';
import type { TaskRecord } from '../types/tasks.js';
import { detailedTaskFields, taskFields2026, tasksExtension } from '../tasks/wire.js';

/** How a `tools/call` is answered: synchronously, as a task, or refused. */
export type TaskMode = 'sync' | 'task';

/** The capability a client must declare to receive tasks. */
const requiredTasks: JsonObject = { extensions: { [tasksExtension]: {} } };

function declaresTasks(clientCapabilities: JsonObject): boolean {
  const extensions = clientCapabilities.extensions;
  return isObject(extensions) && isObject(extensions[tasksExtension]);
}

/**
 * The server's per-call decision (SEP-2663: the client sends no hint; a legacy `task` param is ignored).
 * A task-capable tool runs as a task for a client that declared the extension; an `optional` one runs
 * synchronously for any other client, a `required` one is refused with -32021. A streaming opt-in of the
 * call can still turn a task into a stream (`tools-call.ts`, docs/tasks.md "Tasks and streaming").
 */
export function statelessTaskMode(rt: Runtime, entry: ToolEntry, clientCapabilities: JsonObject): TaskMode {
  const support = entry.def.execution?.taskSupport ?? 'forbidden';
  if (rt.tasks === undefined || support === 'forbidden') return 'sync';
  if (declaresTasks(clientCapabilities)) return 'task';
  if (support === 'required') throw missingCapabilityError(requiredTasks);
  return 'sync';
}

/** Creates the task of a stateless `tools/call` and returns the flat `CreateTaskResult`. */
export async function createStatelessTask(
  rt: Runtime,
  tasks: TaskService,
  name: string,
  args: JsonObject,
  ctx: McpRequestContext,
): Promise<JsonObject> {
  const record = await tasks.create({
    tool: name,
    arguments: args,
    shape: 'stateless',
    protocolVersion: ctx.protocolVersion,
    ...(ctx.principal !== undefined && { principal: ctx.principal }),
    clientCapabilities: ctx.clientCapabilities,
    meta: ctx.meta,
    ...(ctx.inputResponses !== undefined && { inputResponses: ctx.inputResponses }),
    ...(ctx.requestState !== undefined && { requestState: ctx.requestState }),
  });
  return { ...withMeta(rt, taskFields2026(record)), resultType: 'task' };
}

function withMeta(rt: Runtime, fields: JsonObject): JsonObject {
  const shaped = completeResult(rt, fields);
  delete shaped.resultType;
  return shaped;
}

/** Answers a stateless `tasks/*` request: the wire `result`, or a thrown `McpError`. */
export async function callStatelessTaskMethod(
  rt: Runtime,
  headers: Headers,
  request: JsonRpcRequest,
  clientCapabilities: JsonObject,
  ctx: { principal?: McpRequestContext['principal'] },
): Promise<JsonObject> {
  const { method, params } = request;
  const tasks = rt.tasks;
  // tasks/result and tasks/list were removed by the extension: the table serves them session-ful only.
  if (servedMethod(rt, method, 'stateless') === undefined || tasks === undefined) {
    throw new McpError(JsonRpcCode.MethodNotFound, `Method not found: ${method}`);
  }
  if (!declaresTasks(clientCapabilities)) throw missingCapabilityError(requiredTasks);
  const taskId = params?.taskId;
  if (typeof taskId !== 'string' || taskId === '') {
    throw new InvalidParamsError('Invalid params: taskId is required');
  }
  const routing = checkNameHeader(headers, taskId);
  if (routing !== undefined) throw routing;
  const scope = { owner: ownerOf(ctx.principal) };
  if (method === 'tasks/get') return completeResult(rt, detailedTaskFields(await tasks.read(scope, taskId)));
  if (method === 'tasks/cancel') {
    await tasks.cancel(scope, taskId);
    return completeResult(rt, {});
  }
  const responses = params?.inputResponses;
  if (!isObject(responses)) throw new InvalidParamsError('Invalid params: inputResponses must be an object');
  await tasks.deliver(scope, taskId, responses);
  return completeResult(rt, {});
}

/** Exposed for tests: the wire view of a record as `tasks/get` shows it. */
export function detailedTask(rt: Runtime, record: TaskRecord): JsonObject {
  return completeResult(rt, detailedTaskFields(record));
}
