/**
 * The event of a task worker invocation: the asynchronous self-invoke that runs one round of an MCP task
 * in its own invocation (docs/tasks.md "Execution"). It carries only the task's address; everything else,
 * the caller's principal included, is read from the task store by the worker. Its shape is distinct from
 * an API Gateway proxy event (no `httpMethod`, no `requestContext`) and from API Gateway's completion
 * invocation (`invokeCompletionStatus`), so the entry can tell the three apart before parsing.
 */
import { isClientKey } from '../../mcp/index.js';
import type { TaskRef } from '../../mcp/index.js';

/** `kind` of a worker event; also what the entry matches on. */
export const TASK_WORKER_EVENT_KIND = 'bos-mcp/task-round';

/** The worker event as sent. */
export interface TaskWorkerEvent {
  kind: typeof TASK_WORKER_EVENT_KIND;
  /** Shape version, so a bundle never misreads an event sent by a different deployment of itself. */
  v: 1;
  owner: string;
  taskId: string;
}

// The owner key is `anonymous` or `p#` + 40 hex digits (`ownerOf`); task ids follow the client-key rule.
const OWNER = /^(?:anonymous|p#[0-9a-f]{40})$/;

/** The event that asks a worker to run the next round of `ref`. */
export function taskWorkerEvent(ref: TaskRef): TaskWorkerEvent {
  return { kind: TASK_WORKER_EVENT_KIND, v: 1, owner: ref.owner, taskId: ref.taskId };
}

/**
 * The task a worker event names, or undefined when `event` is not exactly a worker event (any other key,
 * a wrong version, or a malformed owner or id).
 */
export function taskWorkerRef(event: unknown): TaskRef | undefined {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return undefined;
  const fields = event as Record<string, unknown>;
  if (fields.kind !== TASK_WORKER_EVENT_KIND || fields.v !== 1) return undefined;
  if (Object.keys(fields).length !== 4) return undefined;
  const { owner, taskId } = fields;
  if (typeof owner !== 'string' || !OWNER.test(owner)) return undefined;
  if (!isClientKey('taskId', taskId)) return undefined;
  return { owner, taskId };
}
