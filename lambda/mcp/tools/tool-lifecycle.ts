/**
 * `wrapTool`: the blessed lifecycle adapter for product tools (mcp-method-surface "Tool lifecycle
 * wrapper"). It composes over `registerTool`/`registerStreamingTool`; it is not a second registry. The
 * runtime applies its own timeout, sanitising and telemetry to every call as well; the wrapper adds
 * argument policy, product-error mapping, a tighter per-tool timeout and tool-scoped telemetry.
 */
import { InvalidParamsError, ToolTimeoutError } from '../errors.js';
import type { JsonObject, McpRequestContext, ToolResult, ToolTelemetryEvent } from '../types/index.js';

/** Options of `wrapTool`. */
export interface WrapToolOptions {
  /** Safe tool name used in telemetry. */
  name: string;
  /** Arguments must be a plain object; with `allowedKeys`, any other key is rejected (-32602). */
  strictJson?: boolean;
  /** Argument names accepted under `strictJson`. */
  allowedKeys?: readonly string[];
  /** Accept omitted, null or `{}` arguments only; any field is rejected (-32602). */
  noArgs?: boolean;
  /**
   * Product validation. Return (or resolve) a safe message to reject with -32602; return nothing to
   * accept. A throw is rejected with a generic -32602 message (its text is not sent).
   */
  validate?: (args: JsonObject) => string | undefined | void | Promise<string | undefined | void>;
  /** Maps an expected product error to a safe `isError: true` result; return undefined to rethrow. */
  handleError?: (error: unknown) => ToolResult | undefined;
  /** Per-tool timeout; expiry becomes the runtime's safe timeout error. */
  timeoutMs?: number;
  /** Start/finish events: name, times, outcome, code; never arguments, tokens or raw errors. */
  telemetry?: (event: ToolTelemetryEvent) => void;
  /** @default Date.now */
  clock?: () => number;
}

type Handler<C extends McpRequestContext> = (args: JsonObject, ctx: C) => Promise<ToolResult>;

function checkArgs(options: WrapToolOptions, args: unknown): JsonObject {
  const isPlain = typeof args === 'object' && args !== null && !Array.isArray(args);
  if (options.noArgs === true) {
    if (args === undefined || args === null) return {};
    if (!isPlain || Object.keys(args).length > 0)
      throw new InvalidParamsError('Invalid params: tool takes no arguments');
    return {};
  }
  if (!isPlain) throw new InvalidParamsError('Invalid params: arguments must be an object');
  if (options.strictJson === true && options.allowedKeys !== undefined) {
    const allowed = new Set(options.allowedKeys);
    for (const key of Object.keys(args)) {
      if (!allowed.has(key)) throw new InvalidParamsError('Invalid params: unknown argument');
    }
  }
  return args as JsonObject;
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolTimeoutError()), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

/** Wraps a tool handler with the lifecycle policy in `options`. */
export function wrapTool<C extends McpRequestContext>(
  options: WrapToolOptions,
  handler: Handler<C>,
): Handler<C> {
  const clock = options.clock ?? Date.now;
  return async (rawArgs, ctx) => {
    const startedAt = clock();
    options.telemetry?.({ name: options.name, phase: 'start', startedAt });
    let outcome: ToolTelemetryEvent['outcome'] = 'ok';
    let isError = false;
    let jsonRpcCode: number | undefined;
    try {
      const args = checkArgs(options, rawArgs);
      if (options.validate !== undefined) {
        let problem: string | undefined | void;
        try {
          problem = await options.validate(args);
        } catch (error) {
          throw new InvalidParamsError('Invalid params: validation failed', { cause: error });
        }
        if (typeof problem === 'string') throw new InvalidParamsError(problem);
      }
      let result: ToolResult;
      try {
        result = await withTimeout(handler(args, ctx), options.timeoutMs);
      } catch (error) {
        const handled = error instanceof ToolTimeoutError ? undefined : options.handleError?.(error);
        if (handled === undefined) throw error;
        result = { ...handled, isError: true };
      }
      isError = result.isError === true;
      if (isError) outcome = 'tool_error';
      return result;
    } catch (error) {
      if (error instanceof InvalidParamsError) {
        outcome = 'invalid_params';
        jsonRpcCode = error.code;
      } else if (error instanceof ToolTimeoutError) {
        outcome = 'timeout';
      } else {
        outcome = 'internal_error';
      }
      throw error;
    } finally {
      const finishedAt = clock();
      options.telemetry?.({
        name: options.name,
        phase: 'finish',
        startedAt,
        finishedAt,
        durationMs: finishedAt - startedAt,
        outcome,
        isError,
        ...(jsonRpcCode === undefined ? {} : { jsonRpcCode }),
      });
    }
  };
}
