import type { JsonObject, McpRequestContext } from '../../mcp/index.js';

/** A tool's refusal checks, made once per call: the grant it looked up and what it derived from it. */
export interface CallPlanner<T extends object> {
  /**
   * The tool's `beforeStream` hook: runs the checks before the SSE response is committed (so a refusal
   * keeps its JSON answer) and resolves to the plan, which the runtime hands to the same call's handler
   * as `ctx.prepared`.
   */
  readonly beforeStream: (args: JsonObject, ctx: McpRequestContext) => Promise<T>;
  /**
   * The plan of this call: the one its `beforeStream` made, else (a plain JSON call, where the hook does
   * not run) the checks run now. Either way the directory was asked during this call; nothing is reused
   * across calls, so a revoked grant takes effect on the next one (DESIGN §5).
   */
  readonly plan: (args: JsonObject, ctx: McpRequestContext) => Promise<T>;
}

/**
 * Wraps a tool's checks so a streamed call runs them once instead of twice (hook, then handler). Only a
 * plan this planner made, and not yet used, is taken from `ctx.prepared`: any other value there (another
 * tool's, a forged one) makes the handler check again, and a plan is used by one handler run only.
 */
export function callPlanner<T extends object>(
  check: (args: JsonObject, ctx: McpRequestContext) => Promise<T>,
): CallPlanner<T> {
  const unused = new WeakSet<object>();
  const isUnused = (value: unknown): value is T =>
    typeof value === 'object' && value !== null && unused.has(value);
  return {
    beforeStream: async (args, ctx) => {
      const plan = await check(args, ctx);
      unused.add(plan);
      return plan;
    },
    plan: (args, ctx) => {
      const prepared = ctx.prepared;
      if (!isUnused(prepared)) return check(args, ctx);
      unused.delete(prepared);
      return Promise.resolve(prepared);
    },
  };
}
