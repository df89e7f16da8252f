/**
 * Local (domain) errors of the AWS adapters. They carry a string `code` and are never sent as-is: the
 * handler maps them to a safe JSON-RPC wire response (see `edge/error-response.ts`).
 */

/** Why a REST v1 proxy event could not become a `Request`. */
export type RestEventErrorCode = 'invalid_base64' | 'invalid_header' | 'invalid_event';

/** The proxy event is malformed in a way the client caused (answered with HTTP 400). */
export class RestEventError extends Error {
  override readonly name = 'RestEventError';
  readonly code: RestEventErrorCode;

  constructor(code: RestEventErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Environment configuration is invalid; `problems` lists every problem found, not just the first. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'invalid_config';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/**
 * Log-safe fields for a thrown value: name, message, code (and a `ConfigError`'s problems), never the stack
 * or the raw object. For logs only; clients get fixed messages.
 */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const code = (error as { code?: unknown }).code;
  return {
    errorName: error.name,
    errorMessage: error.message,
    ...(code === undefined ? {} : { errorCode: code }),
    ...(error instanceof ConfigError ? { problems: error.problems } : {}),
  };
}
