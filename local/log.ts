/**
 * Structured log lines for the local stack's own messages (JSON, one object per line, on stderr so stdout stays
 * free for results such as the `ready:` line).
 */

/** Severity of a local stack log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Writes one JSON log line to stderr. */
export function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}

/** The message of an unknown thrown value, for logs only (never for a client). */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause === undefined ? '' : `: ${describeError(error.cause)}`;
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}
