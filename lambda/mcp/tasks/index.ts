/** The task runtime's public parts: the store port, the in-memory store, options and wire helpers. */
export { InMemoryTaskStore } from './memory-task-store.js';
export { TaskStoreUnavailableError } from '../errors.js';
export { ROUND_SETTLE_MS, TaskExistsError, terminalStatuses } from './task-store.js';
export type { TaskCall, TaskPage, TaskRecord, TaskStatus, TaskStore } from '../types/tasks.js';
export { resolveTaskOptions } from './options.js';
export type { ResolvedTaskOptions } from './options.js';
export type { TaskLauncher, TaskRef, TaskRoundContext, TaskRuntimeOptions } from '../types/tasks.js';
export { ownerOf, taskTag } from './task-service.js';
export { relatedTaskKey, tasksExtension } from './wire.js';
