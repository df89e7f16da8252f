/**
 * Task lifecycle over the `TaskStore`, shared by both protocol shapes and the worker: creation (limits,
 * conditional put, strongly consistent read-back), scoped reads (owner, session and expiry checked on every
 * read; a mismatch is indistinguishable from an unknown id), cancellation, input delivery, and the
 * conditional writes a running task makes. Every write is compare-and-swap on `version`, so a terminal
 * status written by one writer is never overwritten by another.
 */
import { createHash } from 'node:crypto';
import { InvalidParamsError, JsonRpcCode, McpError, RequestCancelledError } from '../errors.js';
import { isClientKey } from '../client-keys.js';
import { randomId } from '../ids.js';
import type { JsonRpcErrorObject, Logger, Principal } from '../types/index.js';
import type { ResolvedTaskOptions } from './options.js';
import type { TaskLauncher, TaskRef } from '../types/tasks.js';
import { terminalStatuses } from './task-store.js';
import type { TaskCall, TaskRecord, TaskStatus } from '../types/tasks.js';

/** Attempts of one read-modify-write before giving up on a hot record. */
const MAX_ATTEMPTS = 8;

/** The owner key a principal's tasks are stored under: never the raw subject. */
export function ownerOf(principal: Principal | undefined): string {
  if (principal === undefined) return 'anonymous';
  return `p#${createHash('sha256').update(principal.subject).digest('hex').slice(0, 40)}`;
}

/** Who is asking: the owner key and, in the session-ful shape, the session. */
export interface TaskScope {
  owner: string;
  sessionId?: string;
}

/** -32602 for an unknown, expired, or someone else's task: all three answer identically. */
export function unknownTask(): McpError {
  return new InvalidParamsError('Invalid params: unknown or expired taskId');
}

/** A short, non-reversible tag for logs (task ids are bearer-like and never logged whole). */
export function taskTag(taskId: string): string {
  return createHash('sha256').update(taskId).digest('hex').slice(0, 12);
}

/** The task runtime of one server. */
export class TaskService {
  readonly options: ResolvedTaskOptions;
  readonly #launcher: TaskLauncher;
  readonly #clock: () => number;
  readonly #logger: Logger;
  /** Cancellation fast path for tasks running in this process. */
  readonly #local = new Map<string, AbortController>();

  constructor(options: ResolvedTaskOptions, launcher: TaskLauncher, clock: () => number, logger: Logger) {
    this.options = options;
    this.#launcher = launcher;
    this.#clock = clock;
    this.#logger = logger;
  }

  /**
   * Creates a `working` task and hands it to the launcher. Refuses (-32602) a TTL above the cap and a
   * principal already at its concurrent-task cap; raises a TTL under `minTtlMs` to it. Resolves with the
   * record as read back.
   */
  async create(call: TaskCall, requestedTtlMs?: number): Promise<TaskRecord> {
    const { store, maxTtlMs, minTtlMs, defaultTtlMs, claimWindowMs, maxActivePerPrincipal } = this.options;
    if (requestedTtlMs !== undefined && requestedTtlMs > maxTtlMs) {
      throw new InvalidParamsError(`Invalid params: task ttl exceeds the maximum of ${maxTtlMs} ms`);
    }
    const ttlMs =
      requestedTtlMs !== undefined && requestedTtlMs > 0
        ? Math.max(minTtlMs, Math.floor(requestedTtlMs))
        : defaultTtlMs;
    const owner = ownerOf(call.principal);
    const now = this.#clock();
    if ((await store.countActive(owner, now)) >= maxActivePerPrincipal)
      throw tooManyTasks(maxActivePerPrincipal);
    const record: TaskRecord = {
      owner,
      taskId: (this.options.newTaskId ?? randomId)(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      expiresAt: now + ttlMs,
      // Until a worker claims the round, its deadline is the claim window's end.
      deadline: now + Math.min(claimWindowMs, ttlMs),
      pollIntervalMs: this.options.pollIntervalMs,
      version: 0,
      call,
    };
    await store.create(record);
    // SEP-2663: no CreateTaskResult before the task is durably created and readable.
    const stored = await store.get(owner, record.taskId);
    if (stored === undefined) throw new Error('task not readable after create');
    // Counting before the write admits concurrent creates together; counting again after it (this task
    // included) refuses whichever of them would take the principal past its cap. No round has started.
    if ((await store.countActive(owner, this.#clock())) > maxActivePerPrincipal) {
      await this.#failUnstarted({ owner, taskId: record.taskId }, 'Refused: too many active tasks', {
        code: JsonRpcCode.InvalidParams,
        message: 'Too many active tasks',
      });
      throw tooManyTasks(maxActivePerPrincipal);
    }
    this.#audit('task created', stored);
    return (await this.#launch({ owner, taskId: record.taskId })) ?? stored;
  }

  /**
   * Hands a `working` round to the launcher. A launch that fails settles the task as `failed` at once (the
   * caller gets that record back) rather than leaving it `working` until its deadline.
   */
  async #launch(ref: TaskRef): Promise<TaskRecord | undefined> {
    try {
      await this.#launcher.launch(ref);
      return undefined;
    } catch (error) {
      this.#logger.error('task launch failed', {
        task: taskTag(ref.taskId),
        error: error instanceof Error ? error.name : 'unknown',
      });
      return this.#failUnstarted(ref, 'The task could not be started', {
        code: JsonRpcCode.InternalError,
        message: 'Task could not be started',
      });
    }
  }

  /** Settles a `working` task that no worker has claimed as `failed`; the record as written, if it was. */
  #failUnstarted(
    ref: TaskRef,
    statusMessage: string,
    error: JsonRpcErrorObject,
  ): Promise<TaskRecord | undefined> {
    return this.transition(ref, (current) =>
      current.status === 'working' && current.worker === undefined
        ? { status: 'failed', statusMessage, error }
        : undefined,
    );
  }

  /**
   * The caller's task, or -32602. A `working` task past its deadline is failed on the way: unclaimed, it
   * "could not be started"; claimed, it "did not finish in time".
   */
  async read(scope: TaskScope, taskId: string): Promise<TaskRecord> {
    const record = await this.load({ owner: scope.owner, taskId });
    if (record === undefined || record.call.sessionId !== scope.sessionId) throw unknownTask();
    return record;
  }

  /**
   * Loads by reference (the worker's view): undefined when absent or expired; deadline applied. An id that
   * cannot be a task id (client-keys.ts) is absent without a store read.
   */
  async load(ref: TaskRef): Promise<TaskRecord | undefined> {
    if (!isClientKey('taskId', ref.taskId)) return undefined;
    const now = this.#clock();
    const record = await this.options.store.get(ref.owner, ref.taskId);
    if (record === undefined || record.expiresAt <= now) return undefined;
    if (record.status === 'working' && record.deadline <= now) {
      // No worker claimed the round in time, or the round outlived its budget (its worker died or was cut
      // off). Lazily settle it as failed.
      return (
        (await this.transition(ref, (current) =>
          current.status === 'working' && current.deadline <= now ? overdue(current) : undefined,
        )) ?? record
      );
    }
    return record;
  }

  /** Cancels a non-terminal task (cooperatively: the running round notices). Terminal tasks are returned as-is. */
  async cancel(scope: TaskScope, taskId: string): Promise<TaskRecord> {
    const record = await this.read(scope, taskId);
    if (terminalStatuses.has(record.status)) return record;
    const ref = { owner: scope.owner, taskId };
    const after = await this.transition(ref, (current) =>
      terminalStatuses.has(current.status)
        ? undefined
        : { status: 'cancelled', statusMessage: 'Cancelled by the client' },
    );
    // With the reason a cancelled request has, so the round ends as a cancellation, not as a failed tool.
    this.#local.get(localKey(ref))?.abort(new RequestCancelledError('cancelled'));
    return after ?? (await this.read(scope, taskId));
  }

  /**
   * Delivers input responses to an `input_required` task. Keys the task did not ask for are ignored;
   * answered keys leave `inputRequests`; once none is pending the task goes back to `working` and runs its
   * next round. Any other status: nothing changes (the caller acks anyway).
   */
  async deliver(scope: TaskScope, taskId: string, responses: Record<string, unknown>): Promise<void> {
    await this.read(scope, taskId);
    const ref = { owner: scope.owner, taskId };
    const after = await this.transition(ref, (current) => {
      if (current.status !== 'input_required' || current.inputRequests === undefined) return undefined;
      const pending = { ...current.inputRequests };
      const gathered = { ...current.call.inputResponses };
      let answered = 0;
      for (const [key, value] of Object.entries(responses)) {
        if (!(key in pending) || value === undefined) continue;
        gathered[key] = value as never;
        delete pending[key];
        answered += 1;
      }
      if (answered === 0) return undefined;
      const call = { ...current.call, inputResponses: gathered };
      if (Object.keys(pending).length > 0) return { call, inputRequests: pending };
      return {
        call,
        status: 'working',
        statusMessage: 'Resuming with the requested input',
        inputRequests: undefined,
        // The next round is a new claim, by whichever worker the launcher reaches, within the claim window.
        worker: undefined,
        deadline: Math.min(this.#clock() + this.options.claimWindowMs, current.expiresAt),
      };
    });
    if (after?.status === 'working') await this.#launch(ref);
  }

  /**
   * Read-modify-write with compare-and-swap: `change` sees the current record and returns the fields to
   * change (undefined: leave it). Returns the record as written, or undefined when nothing was written.
   */
  async transition(
    ref: TaskRef,
    change: (current: TaskRecord) => Partial<TaskRecord> | undefined,
  ): Promise<TaskRecord | undefined> {
    const { store } = this.options;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const current = await store.get(ref.owner, ref.taskId);
      if (current === undefined) return undefined;
      const patch = change(current);
      if (patch === undefined) return undefined;
      const next: TaskRecord = { ...current, ...patch, lastUpdatedAt: this.#clock() };
      for (const key of Object.keys(patch) as (keyof TaskRecord)[]) {
        if (patch[key] === undefined) delete next[key];
      }
      if (await store.replace(next, current.version)) {
        const written = { ...next, version: current.version + 1 };
        if (patch.status !== undefined && patch.status !== current.status) this.#onStatus(written);
        return written;
      }
    }
    throw new Error('task record kept changing under concurrent writers');
  }

  /** Registers the abort controller of a round running in this process (cancellation fast path). */
  track(ref: TaskRef, controller: AbortController): () => void {
    const key = localKey(ref);
    this.#local.set(key, controller);
    return () => {
      if (this.#local.get(key) === controller) this.#local.delete(key);
    };
  }

  #onStatus(record: TaskRecord): void {
    if (record.status === 'cancelled') this.#audit('task cancelled', record);
    else if (terminalStatuses.has(record.status)) this.#audit('task finished', record);
  }

  #audit(message: string, record: TaskRecord): void {
    const fields: Record<string, unknown> = {
      audit: 'task',
      task: taskTag(record.taskId),
      owner: record.owner.slice(0, 14),
      tool: record.call.tool,
      status: record.status satisfies TaskStatus,
    };
    if (record.status === 'failed' && record.error !== undefined) fields.code = record.error.code;
    if (record.status === 'completed') fields.isError = record.result?.isError === true;
    this.#logger.info(message, fields);
  }
}

function tooManyTasks(cap: number): McpError {
  return new McpError(
    JsonRpcCode.InvalidParams,
    `Too many active tasks: at most ${cap} per principal; wait for one to finish or cancel one`,
  );
}

/** The failure a `working` task past its deadline is settled with. */
function overdue(record: TaskRecord): Partial<TaskRecord> {
  if (record.worker === undefined) {
    return {
      status: 'failed',
      statusMessage: 'No worker started the task in time',
      error: { code: JsonRpcCode.InternalError, message: 'Task could not be started' },
    };
  }
  return {
    status: 'failed',
    statusMessage: 'The task did not finish within its execution budget',
    error: { code: JsonRpcCode.InternalError, message: 'Task execution did not finish in time' },
  };
}

function localKey(ref: TaskRef): string {
  return `${ref.owner}\n${ref.taskId}`;
}
