/**
 * Task records on the wire. 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663): a flat
 * `CreateTaskResult` with `resultType: "task"`, and a `DetailedTask` on `tasks/get` inlining the result,
 * the error or the pending input requests; durations are `ttlMs`/`pollIntervalMs`. 2025-11-25: `Task`
 * objects with `ttl`/`pollInterval`, nested under `task` in `CreateTaskResult`.
 */
import type { JsonObject } from '../types/index.js';
import type { TaskRecord } from '../types/tasks.js';

/** The extension id negotiated per request and advertised in `server/discover`. */
export const tasksExtension = 'io.modelcontextprotocol/tasks';

/** `_meta` key relating a message to its task (2025-11-25). */
export const relatedTaskKey = 'io.modelcontextprotocol/related-task';

/** ISO 8601 in UTC, with milliseconds only when there are any (`2026-07-03T00:00:00Z`). */
function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function base(record: TaskRecord): JsonObject {
  const task: JsonObject = {
    taskId: record.taskId,
    status: record.status,
    createdAt: isoTime(record.createdAt),
    lastUpdatedAt: isoTime(record.lastUpdatedAt),
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task;
}

/** 2026-07-28 `Task` fields (without `resultType`). */
export function taskFields2026(record: TaskRecord): JsonObject {
  return { ...base(record), ttlMs: record.ttlMs, pollIntervalMs: record.pollIntervalMs };
}

/** 2026-07-28 `DetailedTask` fields: the task plus what its status carries. */
export function detailedTaskFields(record: TaskRecord): JsonObject {
  const fields = taskFields2026(record);
  if (record.status === 'completed' && record.result !== undefined) fields.result = record.result;
  if (record.status === 'failed' && record.error !== undefined) fields.error = { ...record.error };
  if (record.status === 'input_required' && record.inputRequests !== undefined) {
    fields.inputRequests = record.inputRequests;
  }
  return fields;
}

/** 2025-11-25 `Task`. */
export function task2025(record: TaskRecord): JsonObject {
  return { ...base(record), ttl: record.ttlMs, pollInterval: record.pollIntervalMs };
}
