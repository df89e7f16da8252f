/** Configuration of the task runtime (`McpServerOptions.tasks`). */
import type { TaskStore } from './task-store.js';

/** Which task to run: enough for a worker to load it. */
export interface TaskRef {
  owner: string;
  taskId: string;
}

/** What a worker knows about the invocation it runs a round in. */
export interface TaskRoundContext {
  /** Claims the round under this id (the invocation's request id). @default a random id */
  workerId?: string;
  /** The invocation's own deadline (epoch ms): the round's deadline is brought forward to it. */
  deadline?: number;
}

/**
 * Starts a task's execution outside the request that created it. The default runs it in this process
 * (`McpServer.runTask` in the background); a deployment hands it to a worker invocation instead
 * (docs/tasks.md). `launch` resolves once the hand-off is accepted, not when the task ends.
 */
export interface TaskLauncher {
  launch(ref: TaskRef): Promise<void>;
}

export interface TaskRuntimeOptions {
  store: TaskStore;
  /** @default in-process execution */
  launcher?: TaskLauncher;
  /** TTL of a task whose creator asked for none. @default 600000 (MCP_TASK_TTL_MINUTES = 10) */
  defaultTtlMs?: number;
  /** Largest TTL a client may ask for; more is refused with -32602. @default 3600000 */
  maxTtlMs?: number;
  /**
   * Smallest TTL granted; a smaller requested one is raised to it (the answer's `ttl` says so). A task
   * must stay readable long enough to be polled a few times and for its round to start. @default 5000
   */
  minTtlMs?: number;
  /**
   * How long a round may wait for a worker to claim it; a round still unclaimed after it reads as `failed`
   * ("Task could not be started"). Bounds a task whose worker never started (a lost invoke, a store outage
   * as the round started) to seconds rather than its TTL. @default 30000
   */
  claimWindowMs?: number;
  /** Tasks one principal may have `working` or `input_required` at once; more are refused. @default 10 */
  maxActivePerPrincipal?: number;
  /** Suggested polling interval sent to clients. @default 1000 */
  pollIntervalMs?: number;
  /**
   * Budget of one execution round, from its claim; a round also ends when its task's TTL does. A task still
   * `working` past its round's deadline reads as `failed` (its worker died or was cut off).
   * @default 840000 (14 min, under Lambda's 15-min cap)
   */
  executionBudgetMs?: number;
  /** How often a running task re-reads its record to notice a cancellation from elsewhere. @default 1000 */
  cancelPollMs?: number;
  /**
   * 2025-11-25: `_meta["io.modelcontextprotocol/model-immediate-response"]` on `CreateTaskResult`, a hint
   * for the model while the task runs. @default none
   */
  modelImmediateResponse?: string;
  /** Task ids; injected for deterministic tests only. @default 128-bit CSPRNG ids */
  newTaskId?: () => string;
}

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
