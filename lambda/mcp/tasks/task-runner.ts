/**
 * Runs one round of a task: loads the record, runs the tool with the stored call (principal, arguments,
 * gathered input) under the round's deadline, and writes the outcome with compare-and-swap so a
 * cancellation that landed meanwhile wins. While it runs it re-reads the record every `cancelPollMs` and
 * aborts the tool's signal once the task is cancelled (cooperative cancellation across environments).
 * A streaming tool's progress becomes the task's `statusMessage`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { JsonRpcCode, McpError, outageOf, RequestCancelledError } from '../errors.js';
import { withWholeTexts } from '../json/json-pieces.js';
import { isObject } from '../json/json-rpc.js';
import type { Runtime } from '../runtime.js';
import { requiredCapabilities } from '../tools/input-requests.js';
import { runTool, sessionfulToolResult, toolRunOptions } from '../tools/tool-runner.js';
import type { ToolOutcome } from '../tools/tool-runner.js';
import type { JsonObject, McpRequestContext, StreamingToolContext, ToolResult } from '../types/index.js';
import { randomId } from '../ids.js';
import type { TaskRef, TaskRoundContext } from '../types/tasks.js';
import { ownerOf, taskTag } from './task-service.js';
import type { TaskService } from './task-service.js';
import type { TaskRecord } from '../types/tasks.js';

/**
 * Runs the next round of a `working` task; does nothing for any other status, or when another worker has
 * already claimed the round. Never rejects.
 */
export async function runTask(
  rt: Runtime,
  tasks: TaskService,
  ref: TaskRef,
  round: TaskRoundContext = {},
): Promise<void> {
  try {
    const record = await claim(rt, tasks, ref, round);
    if (record === undefined) return;
    const outcome = await execute(rt, tasks, ref, record);
    await writeOutcome(rt, record, () =>
      tasks.transition(ref, (current) =>
        current.status === 'working' && current.worker === record.worker
          ? settle(rt, current, outcome)
          : undefined,
      ),
    );
  } catch (error) {
    rt.logger.error('task round failed', { error: error instanceof Error ? error.name : 'unknown' });
  }
}

/**
 * Writes the round's outcome. While the store is out the write is tried again every second until the
 * round's deadline, so an outcome computed during a short outage is not lost.
 */
async function writeOutcome(rt: Runtime, record: TaskRecord, write: () => Promise<unknown>): Promise<void> {
  for (;;) {
    try {
      await write();
      return;
    } catch (error) {
      if (outageOf(error) === undefined || rt.clock() + 1000 >= record.deadline) throw error;
      await sleep(1000);
    }
  }
}

/**
 * Longest wait for an aborted tool to stop before the round writes its outcome anyway; within
 * `ROUND_SETTLE_MS`, so the slot is still counted while the round waits.
 */
const HANDLER_STOP_MS = 5000;

/** Pause between claim attempts while the store is out. */
const CLAIM_RETRY_MS = 500;

/**
 * Claims the round, trying again while the store is out, until the claim window or the invocation ends
 * (whichever is first): a short outage as the round starts delays it instead of stranding the task. The
 * window's end is the unclaimed record's deadline, so a round still unclaimed then reads `failed`.
 */
async function claim(
  rt: Runtime,
  tasks: TaskService,
  ref: TaskRef,
  round: TaskRoundContext,
): Promise<TaskRecord | undefined> {
  let until = round.deadline ?? Infinity;
  for (;;) {
    try {
      return await claimOnce(rt, tasks, ref, round, (deadline) => {
        until = Math.min(until, deadline);
      });
    } catch (error) {
      if (outageOf(error) === undefined || rt.clock() + CLAIM_RETRY_MS >= until) throw error;
      // Without a record read yet, the window is unknown: the invocation's deadline, or the default.
      if (until === Infinity) until = rt.clock() + tasks.options.claimWindowMs;
      await sleep(CLAIM_RETRY_MS);
    }
  }
}

/**
 * One claim attempt: compare-and-swap of the worker id, with the round's deadline set to the earliest of
 * the execution budget from now, the task's expiry (nothing runs for a task nobody can read) and the
 * invocation's own deadline (so a worker that dies is noticed once its invocation could no longer be
 * running). The stored binding is checked again: the owner key must be the one the stored principal
 * hashes to, so a reference naming another owner's key runs nothing.
 */
async function claimOnce(
  rt: Runtime,
  tasks: TaskService,
  ref: TaskRef,
  round: TaskRoundContext,
  window: (deadline: number) => void,
): Promise<TaskRecord | undefined> {
  const record = await tasks.load(ref);
  if (record?.status === 'working' && record.worker === undefined) window(record.deadline);
  if (record === undefined || record.status !== 'working' || record.worker !== undefined) return undefined;
  if (ownerOf(record.call.principal) !== ref.owner) {
    rt.logger.warn('task round refused: principal binding mismatch', { task: taskTag(ref.taskId) });
    return undefined;
  }
  const worker = round.workerId ?? randomId();
  const budgetEnd = rt.clock() + tasks.options.executionBudgetMs;
  return tasks.transition(ref, (current) =>
    current.status === 'working' && current.worker === undefined && current.deadline > rt.clock()
      ? {
          worker,
          deadline: Math.min(budgetEnd, current.expiresAt, round.deadline ?? Infinity),
        }
      : undefined,
  );
}

async function execute(
  rt: Runtime,
  tasks: TaskService,
  ref: TaskRef,
  record: TaskRecord,
): Promise<ToolOutcome> {
  const { call } = record;
  const entry = rt.tools.get(call.tool);
  if (entry === undefined) {
    return { ok: false, error: new McpError(JsonRpcCode.InvalidParams, `tool not found: ${call.tool}`) };
  }
  const controller = new AbortController();
  const untrack = tasks.track(ref, controller);
  // The round stops as soon as it is no longer this worker's running round: cancelled, settled by someone
  // else, gone, or past the task's TTL (its deadline ends it too; this notices a cancellation sooner).
  const watcher = setInterval(() => {
    void tasks.options.store.get(ref.owner, ref.taskId).then(
      (current) => {
        if (
          current === undefined ||
          current.status !== 'working' ||
          current.worker !== record.worker ||
          current.expiresAt <= rt.clock()
        ) {
          controller.abort(new RequestCancelledError('cancelled'));
        }
      },
      () => undefined,
    );
  }, tasks.options.cancelPollMs);
  const ctx = taskContext(record, controller.signal);
  const guard = {
    ...toolRunOptions(
      rt,
      { deadline: record.deadline },
      call.tool,
      Math.max(1, record.deadline - rt.clock()),
      controller,
    ),
    shapeResult: call.shape === 'stateless' ? checkedResult : sessionfulToolResult,
  };
  // A tool that was aborted or timed out may still be winding down after `runTool` answered; the round
  // (and its slot under the principal's cap) lasts until it has stopped, or `HANDLER_STOP_MS` at most.
  let stopped: Promise<unknown> = Promise.resolve();
  const tracked = (handler: () => Promise<ToolResult>) => () => {
    const running = handler();
    stopped = running.catch(() => undefined);
    return running;
  };
  try {
    if (!entry.streaming)
      return await runTool(
        tracked(() => entry.handler(call.arguments, ctx)),
        guard,
      );
    const progress = progressReporter(tasks, ref);
    const streaming: StreamingToolContext = {
      ...ctx,
      progress: (done, total, message) =>
        progress(message ?? (total === undefined ? `${done}` : `${done} of ${total}`)),
      log: () => undefined,
      notify: () => undefined,
      comment: () => undefined,
      ready: () => Promise.resolve(),
      request: () => Promise.reject(new Error('server-to-client requests are not available inside a task')),
    };
    return await runTool(
      tracked(() => entry.handler(call.arguments, streaming)),
      guard,
    );
  } finally {
    clearInterval(watcher);
    untrack();
    await Promise.race([stopped, sleep(HANDLER_STOP_MS, undefined, { ref: false })]);
  }
}

/** The handler's view of a task round: the stored request, no stream. */
function taskContext(record: TaskRecord, signal: AbortSignal): McpRequestContext {
  const { call } = record;
  const ctx: McpRequestContext = {
    shape: call.shape,
    protocolVersion: call.protocolVersion,
    requestId: record.taskId,
    signal,
    deadline: record.deadline,
    meta: call.meta,
    accepts: () => false,
    clientCapabilities: call.clientCapabilities,
    task: { taskId: record.taskId },
  };
  if (call.sessionId !== undefined) ctx.sessionId = call.sessionId;
  if (call.principal !== undefined) ctx.principal = call.principal;
  if (call.inputResponses !== undefined) ctx.inputResponses = call.inputResponses;
  if (call.requestState !== undefined) ctx.requestState = call.requestState;
  return ctx;
}

/** Status messages, written one at a time; a newer message replaces a pending one. */
function progressReporter(tasks: TaskService, ref: TaskRef): (message: string) => void {
  let pending: string | undefined;
  let writing = false;
  const flush = async (): Promise<void> => {
    writing = true;
    while (pending !== undefined) {
      const message = pending;
      pending = undefined;
      await tasks
        .transition(ref, (current) =>
          current.status === 'working' && current.statusMessage !== message
            ? { statusMessage: message }
            : undefined,
        )
        .catch(() => undefined);
    }
    writing = false;
  };
  return (message) => {
    pending = message.slice(0, 500);
    if (!writing) void flush();
  };
}

/** 2026-07-28 results keep their multi-round fields for `settle`; anything else must have content. */
function checkedResult(result: ToolResult): JsonObject {
  if (!isObject(result)) throw new TypeError('tool returned no result object');
  if (result.resultType !== 'input_required' && !Array.isArray(result.content)) {
    throw new TypeError('tool returned a result without a content array');
  }
  return result;
}

/** The fields a finished round writes. */
function settle(rt: Runtime, current: TaskRecord, outcome: ToolOutcome): Partial<TaskRecord> {
  if (!outcome.ok) {
    const { code, message, data } = outcome.error;
    return { status: 'failed', error: data === undefined ? { code, message } : { code, message, data } };
  }
  const { resultType, inputRequests, requestState, ...result } = outcome.result;
  if (resultType !== 'input_required') {
    // The last progress message would be stale once the result is in.
    return { status: 'completed', result: withWholeTexts(result), statusMessage: undefined };
  }
  if (!isObject(inputRequests) || Object.keys(inputRequests).length === 0) {
    return {
      status: 'failed',
      error: { code: JsonRpcCode.InternalError, message: 'Internal error' },
    };
  }
  const missing = requiredCapabilities(rt, inputRequests as never, current.call.clientCapabilities);
  if (missing !== undefined) {
    return {
      status: 'failed',
      error: {
        code: JsonRpcCode.MissingRequiredClientCapability,
        message: 'Missing required client capability',
        data: { requiredCapabilities: missing },
      },
    };
  }
  return {
    status: 'input_required',
    statusMessage: 'Waiting for input',
    inputRequests,
    call: {
      ...current.call,
      ...(typeof requestState === 'string' ? { requestState } : { requestState: undefined }),
    },
  };
}
