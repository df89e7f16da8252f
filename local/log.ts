/**
 * Structured log lines for the local stack's own messages (JSON, one object per line, on stderr so stdout stays
 * free for results such as the `ready:` line).
 */

/** Severity of a local stack log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Level names as the function's Powertools Logger writes them, so one filter reads both. */
const LEVEL_NAMES = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' } as const;

/**
 * Writes one JSON log line to stderr, in the function's shape (`level`, `message`, `timestamp` first, as
 * Powertools Logger writes them deployed).
 */
export function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
  const line = { level: LEVEL_NAMES[level], message, timestamp: new Date().toISOString(), ...fields };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** The message of an unknown thrown value, for logs only (never for a client). */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause === undefined ? '' : `: ${describeError(error.cause)}`;
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}
