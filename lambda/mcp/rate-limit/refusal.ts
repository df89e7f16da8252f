/** How a refused request is answered: `-32029` with the bucket and the wait, and `Retry-After` (docs/errors.md). */
import { JsonRpcCode, McpError } from '../errors.js';
import type { RateDecision } from './limiter.js';

/** The JSON-RPC error and headers of a refusal; `undefined` when the request was admitted. */
export function rateLimitRefusal(
  decision: RateDecision,
): { readonly error: McpError; readonly headers: Record<string, string> } | undefined {
  if (decision.admitted) return undefined;
  const { bucket, retryAfterSeconds } = decision;
  return {
    error: new McpError(JsonRpcCode.RateLimited, 'Rate limit exceeded', {
      data: { bucket, retryAfterSeconds },
    }),
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}
