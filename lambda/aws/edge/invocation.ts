/**
 * The per-invocation facts the MCP runtime needs from Lambda (DESIGN §3 step 2): request id, an absolute
 * deadline, the client IP, and a cancellation signal for client disconnect.
 */
import type { Context } from 'aws-lambda';
import type { McpInvocationContext } from '../../mcp/index.js';

/** One invocation: the context handed to `McpServer.handle` and the means to cancel it. */
export interface Invocation {
  context: McpInvocationContext;
  /** The same signal as `context.signal`, typed as always present (e.g. for `Request.signal`). */
  signal: AbortSignal;
  /** Fires `context.signal`; safe to call more than once (only the first reason counts). */
  abort(reason?: unknown): void;
}

/** Options for {@link createInvocation}. */
export interface InvocationOptions {
  /** From `requestContext.identity.sourceIp` (see `parseRestEvent`). */
  sourceIp?: string;
  /** @default Date.now */
  now?: () => number;
}

/**
 * Builds the invocation context. The deadline is `now + getRemainingTimeInMillis()`: an absolute instant,
 * so every later check (federation budgets, the final frame reserve) measures against the same point.
 */
export function createInvocation(
  lambdaContext: Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>,
  options: InvocationOptions = {},
): Invocation {
  const now = options.now ?? Date.now;
  const controller = new AbortController();
  const remaining = lambdaContext.getRemainingTimeInMillis();
  const context: McpInvocationContext = {
    requestId: lambdaContext.awsRequestId,
    signal: controller.signal,
    ...(Number.isFinite(remaining) && remaining > 0 ? { deadline: now() + remaining } : {}),
    ...(options.sourceIp === undefined ? {} : { sourceIp: options.sourceIp }),
  };
  return {
    context,
    signal: controller.signal,
    abort: (reason) => {
      if (!controller.signal.aborted) controller.abort(reason);
    },
  };
}
