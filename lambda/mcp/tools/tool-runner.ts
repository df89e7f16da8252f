/**
 * The runtime's part of the tool lifecycle, applied to every `tools/call` whether or not the handler was
 * wrapped with `wrapTool`: timeout and cancellation (via `guardedCall`), error sanitising, result
 * shaping, and telemetry without arguments or raw errors.
 */
import {
  JsonRpcCode,
  McpError,
  RequestCancelledError,
  ToolError,
  ToolTimeoutError,
  toWireError,
} from '../errors.js';
import { guardedCall } from './guarded-call.js';
import type { GuardOptions } from './guarded-call.js';
import { describeError } from '../logger.js';
import type { Runtime } from '../runtime.js';
import type {
  JsonObject,
  JsonValue,
  Logger,
  McpInvocationContext,
  McpRequestContext,
  StreamingToolContext,
  StreamingToolOptions,
  ToolResult,
  ToolTelemetryEvent,
} from '../types/index.js';

/** A finished call: the JSON `result` object, or a wire error. */
export type ToolOutcome = { ok: true; result: JsonObject } | { ok: false; error: McpError };

/** Inputs of `runTool`. */
export interface RunToolOptions extends GuardOptions {
  name: string;
  telemetry: ((event: ToolTelemetryEvent) => void) | undefined;
  logger: Logger;
  /** Turns the handler's result into the wire `result`. @default sessionfulToolResult */
  shapeResult?: (result: ToolResult) => JsonObject;
}

/**
 * The lifecycle options of one `tools/call` in either protocol shape: the tool's own timeout (else the
 * server's), the invocation deadline and disconnect signal, and the runtime's clock, logger and telemetry.
 */
export function toolRunOptions(
  rt: Runtime,
  invocation: McpInvocationContext,
  name: string,
  timeoutMs: number | undefined,
  controller: AbortController,
): RunToolOptions {
  return {
    controller,
    timeoutMs: timeoutMs ?? rt.options.toolTimeoutMs,
    deadline: invocation.deadline,
    deadlineReserveMs: rt.options.deadlineReserveMs,
    external: invocation.signal,
    clock: rt.clock,
    logger: rt.logger,
    name,
    telemetry: rt.telemetry,
  };
}

/**
 * Shapes a handler's result for the session-ful wire: only MCP 2025-11-25 fields, never the 2026-07-28
 * `resultType`/`inputRequests`/`requestState` (an `input_required` result cannot be expressed here).
 */
export function sessionfulToolResult(result: ToolResult): JsonObject {
  if (typeof result !== 'object' || result === null || !Array.isArray(result.content)) {
    throw new TypeError('tool returned a result without a content array');
  }
  if (result.resultType === 'input_required') {
    throw new TypeError('tool returned input_required in the session-ful shape');
  }
  // A `TextPieces` text serialises as its text (`toJSON`), so the content is JSON as far as the wire goes.
  const out: JsonObject = { content: result.content as unknown as JsonValue };
  if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
  if (result.isError !== undefined) out.isError = result.isError;
  if (result._meta !== undefined) out._meta = result._meta;
  return out;
}

function outcomeOf(error: unknown): ToolTelemetryEvent['outcome'] {
  if (error instanceof ToolTimeoutError) return 'timeout';
  if (error instanceof RequestCancelledError) return 'cancelled';
  if (error instanceof McpError)
    return error.code === JsonRpcCode.InvalidParams ? 'invalid_params' : 'internal_error';
  return 'internal_error';
}

/** Runs a tool handler and maps every way it can end to a `ToolOutcome`. Never rejects. */
export async function runTool(
  call: (signal: AbortSignal) => Promise<ToolResult>,
  options: RunToolOptions,
): Promise<ToolOutcome> {
  const startedAt = options.clock();
  emit(options, { name: options.name, phase: 'start', startedAt });
  let outcome: ToolOutcome;
  let kind: ToolTelemetryEvent['outcome'];
  try {
    const result = (options.shapeResult ?? sessionfulToolResult)(await guardedCall(call, options));
    outcome = { ok: true, result };
    kind = result.isError === true ? 'tool_error' : 'ok';
  } catch (error) {
    if (error instanceof ToolError && error.expose) {
      outcome = { ok: true, result: { content: [{ type: 'text', text: error.message }], isError: true } };
      kind = 'tool_error';
    } else {
      const wire = toWireError(error);
      if (!(error instanceof McpError) && wire.code === JsonRpcCode.InternalError) {
        // Detail stays in the server log; the client sees only the generic message.
        options.logger.error('tool failed', { tool: options.name, ...describeError(error) });
      }
      outcome = { ok: false, error: wire };
      kind = outcomeOf(error);
    }
  }
  if (options.telemetry !== undefined) {
    const finishedAt = options.clock();
    emit(options, {
      name: options.name,
      phase: 'finish',
      startedAt,
      finishedAt,
      durationMs: finishedAt - startedAt,
      outcome: kind,
      ...(outcome.ok
        ? { isError: outcome.result.isError === true }
        : { jsonRpcCode: outcome.error.code, isError: false }),
    });
  }
  return outcome;
}

/** Telemetry must never break a call: a throwing hook is logged and ignored. */
function emit(options: RunToolOptions, event: ToolTelemetryEvent): void {
  try {
    options.telemetry?.(event);
  } catch (error) {
    options.logger.warn('telemetry hook failed', describeError(error));
  }
}

/**
 * Runs a streaming tool's `beforeStream` hook before any SSE byte is committed. Returns the outcome to
 * answer as JSON when the hook refuses (McpError → that error; exposed ToolError → `isError` result;
 * anything else → sanitized -32603), or undefined to go on streaming. Never rejects.
 *
 * What the hook resolves to is recorded as `ctx.prepared`: both protocol shapes build the handler's
 * streaming context from this `ctx` (`{ ...ctx, … }`) after the preflight, so the handler of the same call
 * receives it and need not repeat the hook's checks (two directory reads per streamed BOS call otherwise).
 * `started`: the hook's promise when it was already started for this call (`sessionful/early-preflight.ts`);
 * it is then awaited under the same guard instead of calling the hook again.
 */
export async function preflight(
  options: StreamingToolOptions,
  args: JsonObject,
  ctx: McpRequestContext,
  guard: RunToolOptions,
  started?: Promise<unknown>,
): Promise<ToolOutcome | undefined> {
  const hook = options.beforeStream;
  if (hook === undefined) return undefined;
  try {
    const prepared = await guardedCall(() => started ?? hook(args, ctx), guard);
    if (prepared !== undefined) ctx.prepared = prepared;
    return undefined;
  } catch (error) {
    if (error instanceof ToolError && error.expose) {
      return { ok: true, result: { content: [{ type: 'text', text: error.message }], isError: true } };
    }
    const wire = toWireError(error);
    if (!(error instanceof McpError) && wire.code === JsonRpcCode.InternalError) {
      guard.logger.error('beforeStream failed', { tool: guard.name, ...describeError(error) });
    }
    return { ok: false, error: wire };
  }
}

/**
 * A streaming context whose stream powers are no-ops, for a call answered as one JSON body (or inside a batch);
 * `request` is how the shape refuses a server-to-client request there.
 */
export function bufferedToolContext(
  base: McpRequestContext,
  request: StreamingToolContext['request'],
): StreamingToolContext {
  return {
    ...base,
    progress: () => undefined,
    log: () => undefined,
    notify: () => undefined,
    comment: () => undefined,
    ready: () => Promise.resolve(),
    request,
  };
}
