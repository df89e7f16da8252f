/**
 * MCP 2025-11-25 tasks in the session-ful shape (experimental core): `execution.taskSupport` enforced on
 * `tools/call` (a task for a `forbidden` tool, or a plain call of a `required` one, is -32601),
 * task-augmented calls answered with `CreateTaskResult { task }`, and `tasks/get`, `tasks/result`
 * (blocking until terminal, bounded by the invocation's budget; `task-result-stream.ts` answers it
 * as SSE with `notifications/tasks/status`), `tasks/list` (this caller's tasks of this
 * session, cursor-paged) and `tasks/cancel` (-32602 on a terminal task). Tasks are bound to the principal
 * and the session; anything else reads as an unknown id.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidParamsError, JsonRpcCode, McpError } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import type { ToolEntry } from '../registries/tools.js';
import type { Runtime } from '../runtime.js';
import type { JsonObject, JsonRpcRequest, McpRequestContext } from '../types/index.js';
import { ownerOf } from '../tasks/task-service.js';
import type { TaskScope, TaskService } from '../tasks/task-service.js';
import { terminalStatuses } from '../tasks/task-store.js';
import type { TaskRecord } from '../types/tasks.js';
import { relatedTaskKey, task2025 } from '../tasks/wire.js';

const methodNotFound = (message: string): McpError => new McpError(JsonRpcCode.MethodNotFound, message);

/**
 * The task of a session-ful `tools/call`, if it asks for one: the `CreateTaskResult`, or undefined for a
 * plain call. Throws when the call and the tool's `taskSupport` disagree.
 */
export async function sessionfulTaskCall(
  rt: Runtime,
  tasks: TaskService,
  entry: ToolEntry,
  args: JsonObject,
  params: JsonObject | undefined,
  ctx: McpRequestContext,
): Promise<JsonObject | undefined> {
  const support = entry.def.execution?.taskSupport ?? 'forbidden';
  const task = params?.task;
  if (task === undefined) {
    if (support === 'required')
      throw methodNotFound(`Method not found: ${entry.def.name} must be called as a task`);
    return undefined;
  }
  if (support === 'forbidden')
    throw methodNotFound(`Method not found: ${entry.def.name} does not support tasks`);
  if (!isObject(task)) throw new InvalidParamsError('Invalid params: task must be an object');
  const ttl = task.ttl;
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0)) {
    throw new InvalidParamsError('Invalid params: task.ttl must be a positive number of milliseconds');
  }
  const record = await tasks.create(
    {
      tool: entry.def.name,
      arguments: args,
      shape: 'sessionful',
      protocolVersion: ctx.protocolVersion,
      ...(ctx.principal !== undefined && { principal: ctx.principal }),
      ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
      clientCapabilities: ctx.clientCapabilities,
      meta: ctx.meta,
    },
    ttl,
  );
  const meta: JsonObject = { [relatedTaskKey]: { taskId: record.taskId } };
  const hint = tasks.options.modelImmediateResponse;
  if (hint !== undefined) meta['io.modelcontextprotocol/model-immediate-response'] = hint;
  return { task: task2025(record), _meta: meta };
}

/** Answers a session-ful `tasks/*` request. */
export async function callSessionfulTaskMethod(
  rt: Runtime,
  tasks: TaskService,
  request: JsonRpcRequest,
  ctx: McpRequestContext,
): Promise<JsonObject> {
  const { method, params } = request;
  const scope: TaskScope = {
    owner: ownerOf(ctx.principal),
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
  };
  if (method === 'tasks/list') return list(rt, tasks, scope, params?.cursor);
  if (method !== 'tasks/get' && method !== 'tasks/result' && method !== 'tasks/cancel') {
    throw methodNotFound(`Method not found: ${method}`);
  }
  const taskId = params?.taskId;
  if (typeof taskId !== 'string' || taskId === '')
    throw new InvalidParamsError('Invalid params: taskId is required');
  if (method === 'tasks/get') return task2025(await tasks.read(scope, taskId));
  if (method === 'tasks/cancel') {
    const current = await tasks.read(scope, taskId);
    if (terminalStatuses.has(current.status)) throw new InvalidParamsError('task already terminal');
    return task2025(await tasks.cancel(scope, taskId));
  }
  return taskResult(await waitTerminal(rt, tasks, scope, taskId, ctx.deadline));
}

/** A `tasks/result` about to wait: whose task it is, and the task as first read (unknown ids throw here). */
export interface TaskResultStart {
  scope: TaskScope;
  record: TaskRecord;
}

/**
 * The checks of a `tasks/result` that come before any byte of its answer: a valid `taskId` of a task this
 * caller may see in this session. Its failures are ordinary JSON-RPC errors, never stream frames.
 */
export async function startTaskResult(
  tasks: TaskService,
  request: JsonRpcRequest,
  ctx: McpRequestContext,
): Promise<TaskResultStart> {
  const scope: TaskScope = {
    owner: ownerOf(ctx.principal),
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
  };
  const taskId = request.params?.taskId;
  if (typeof taskId !== 'string' || taskId === '')
    throw new InvalidParamsError('Invalid params: taskId is required');
  return { scope, record: await tasks.read(scope, taskId) };
}

/**
 * Polls until the task is terminal, within the invocation's budget (tasks/result blocks). `onRecord` sees
 * every record read, the terminal one included; `signal` stops the wait early (the client went away).
 */
export async function waitTerminal(
  rt: Runtime,
  tasks: TaskService,
  scope: TaskScope,
  taskId: string,
  deadline: number | undefined,
  onRecord?: (record: TaskRecord) => void,
  signal?: AbortSignal,
): Promise<TaskRecord> {
  const budgetEnd =
    Math.min(deadline ?? Infinity, rt.clock() + rt.options.toolTimeoutMs) - rt.options.deadlineReserveMs;
  for (;;) {
    const record = await tasks.read(scope, taskId);
    onRecord?.(record);
    if (terminalStatuses.has(record.status)) return record;
    const wait = Math.min(record.pollIntervalMs, 250);
    if (rt.clock() + wait >= budgetEnd) {
      throw new McpError(JsonRpcCode.TaskStillRunning, 'Task still running: call tasks/result again');
    }
    await sleep(wait, undefined, signal === undefined ? undefined : { signal });
  }
}

/**
 * `notifications/tasks/status` for a task as `tasks/get` returns it, related to the task through `_meta`.
 */
export function taskStatusNotification(record: TaskRecord): JsonObject {
  return { ...task2025(record), _meta: { [relatedTaskKey]: { taskId: record.taskId } } };
}

/** The underlying result of a terminal task, related to it through `_meta` (or its error). */
export function taskResult(record: TaskRecord): JsonObject {
  const related = { [relatedTaskKey]: { taskId: record.taskId } };
  if (record.status === 'completed' && record.result !== undefined) {
    const meta = isObject(record.result._meta) ? record.result._meta : {};
    return { ...record.result, _meta: { ...meta, ...related } };
  }
  if (record.status === 'failed' && record.error !== undefined) {
    const { code, message, data } = record.error;
    throw new McpError(code, message, { data: { ...(isObject(data) ? data : {}), ...related } });
  }
  throw new McpError(JsonRpcCode.InvalidParams, 'Task was cancelled', { data: related });
}

async function list(rt: Runtime, tasks: TaskService, scope: TaskScope, cursor: unknown): Promise<JsonObject> {
  if (cursor !== undefined && typeof cursor !== 'string')
    throw new InvalidParamsError('Invalid params: cursor must be a string');
  if (cursor !== undefined)
    await tasks.read(scope, cursor).catch(() => {
      throw new InvalidParamsError('Invalid params: unknown cursor');
    });
  const now = rt.clock();
  const page = await tasks.options.store.list(scope.owner, rt.options.pageSize, cursor);
  const mine = page.records.filter((r) => r.call.sessionId === scope.sessionId && r.expiresAt > now);
  const out: JsonObject = { tasks: mine.map(task2025) };
  if (page.nextCursor !== undefined) out.nextCursor = page.nextCursor;
  return out;
}
