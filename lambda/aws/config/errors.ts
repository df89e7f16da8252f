/**
 * The configuration's local (domain) error, and the log-safe fields of any thrown value. Local errors carry a
 * string `code` and are never sent as-is.
 */

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
