/** Configuration of the task runtime (`McpServerOptions.tasks`) with its defaults applied. */
import type { TaskRuntimeOptions } from '../types/tasks.js';

/** `TaskRuntimeOptions` with defaults applied. */
export type ResolvedTaskOptions = Required<
  Omit<TaskRuntimeOptions, 'launcher' | 'modelImmediateResponse' | 'newTaskId'>
> &
  Pick<TaskRuntimeOptions, 'launcher' | 'modelImmediateResponse' | 'newTaskId'>;

const positive = (value: number | undefined, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;

/** Applies defaults; non-positive or non-finite numbers fall back to them. */
export function resolveTaskOptions(options: TaskRuntimeOptions): ResolvedTaskOptions {
  const maxTtlMs = positive(options.maxTtlMs, 3_600_000);
  return {
    store: options.store,
    launcher: options.launcher,
    defaultTtlMs: Math.min(positive(options.defaultTtlMs, 600_000), maxTtlMs),
    maxTtlMs,
    minTtlMs: Math.min(positive(options.minTtlMs, 5000), maxTtlMs),
    claimWindowMs: positive(options.claimWindowMs, 30_000),
    maxActivePerPrincipal: positive(options.maxActivePerPrincipal, 10),
    pollIntervalMs: positive(options.pollIntervalMs, 1000),
    executionBudgetMs: positive(options.executionBudgetMs, 840_000),
    cancelPollMs: positive(options.cancelPollMs, 1000),
    modelImmediateResponse: options.modelImmediateResponse,
    newTaskId: options.newTaskId,
  };
}
