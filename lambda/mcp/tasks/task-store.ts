/**
 * The task store's values: the slot a finished round keeps, the terminal statuses and the id-taken error.
 * The port itself and its record are types (`types/tasks.ts`).
 */
import type { TaskStatus } from '../types/tasks.js';

/**
 * How long a `working` task keeps its slot in the per-principal cap after its round's deadline: the time
 * an aborted round takes to stop and write its outcome (one store call with its retries). A worker that
 * died frees the slot after it.
 */
export const ROUND_SETTLE_MS = 10_000;

/** Statuses a task never leaves. */
export const terminalStatuses: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** The id is already taken (a 128-bit collision, or a replayed create). */
export class TaskExistsError extends Error {
  constructor() {
    super('task id already exists');
    this.name = 'TaskExistsError';
  }
}
