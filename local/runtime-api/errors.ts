/** Why an invocation failed, from the invoker's point of view. */
export type InvocationErrorCode =
  /** The function reported an error (`/error`, or error trailers on a streamed `/response`). */
  | 'function_error'
  /** The invocation ran past the function timeout; its runtime was killed. */
  | 'timeout'
  /** The runtime process died while the invocation was in flight. */
  | 'runtime_exit'
  /** The runtime could not initialise the function (`/runtime/init/error`, or it exited before `/next`). */
  | 'init_error'
  /** The invoker gave up (abort signal) before the function answered. */
  | 'aborted'
  /** The pool was closed. */
  | 'closed'
  /** The function's concurrency limit is reached (Lambda `TooManyRequestsException`). */
  | 'throttled';

/**
 * A failed invocation. Local tooling only: the REST front maps every one of these to API Gateway's generic
 * answer, so `errorType`/`errorMessage` (the function's own text) never reach an HTTP client.
 */
export class InvocationError extends Error {
  override readonly name = 'InvocationError';
  readonly code: InvocationErrorCode;
  /** The error type Lambda reports, e.g. `Error`, `Sandbox.Timedout`, `Runtime.ExitError`. */
  readonly errorType: string;

  constructor(code: InvocationErrorCode, errorType: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.errorType = errorType;
  }
}

/** Raised when the pool cannot start (a runtime failed to initialise or did not become ready in time). */
export class RuntimePoolStartError extends Error {
  override readonly name = 'RuntimePoolStartError';
  readonly code = 'runtime_pool_start_failed';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Reads a Lambda error document (`{"errorType","errorMessage"}`), as posted to `/error`, `/init/error` or
 * carried base64-encoded in the `Lambda-Runtime-Function-Error-Body` trailer.
 */
export function parseErrorDocument(
  text: string,
  fallbackType: string,
): { errorType: string; errorMessage: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      return {
        errorType: typeof record['errorType'] === 'string' ? record['errorType'] : fallbackType,
        errorMessage: typeof record['errorMessage'] === 'string' ? record['errorMessage'] : '',
      };
    }
  } catch {
    // Not JSON: keep the raw text as the message below.
  }
  return { errorType: fallbackType, errorMessage: text };
}
