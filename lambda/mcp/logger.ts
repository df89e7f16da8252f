/**
 * Structured logger: one JSON object per line on stdout/stderr. `lambda/` never uses `console`
 * (CloudWatch turns each line into one event; JSON lines stay queryable with Logs Insights).
 */
import type { Logger } from './types/index.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
const rank: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Options of `createJsonLogger`. */
export interface JsonLoggerOptions {
  /** Lowest level written. @default 'info' */
  level?: Level;
  /** Fields added to every line (e.g. `{ component: 'mcp' }`). */
  base?: Record<string, unknown>;
  /** Injected for tests. @default Date.now */
  clock?: () => number;
}

/** A `Logger` writing JSON lines; warn/error go to stderr. */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const min = rank[options.level ?? 'info'];
  const clock = options.clock ?? Date.now;
  const write = (level: Level, message: string, fields?: Record<string, unknown>): void => {
    if (rank[level] < min) return;
    const line = JSON.stringify({
      time: new Date(clock()).toISOString(),
      level,
      message,
      ...options.base,
      ...fields,
    });
    (rank[level] >= rank.warn ? process.stderr : process.stdout).write(line + '\n');
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Log-safe description of a thrown value: name and message, never the stack or the raw object. */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      errorName: error.name,
      errorMessage: error.message,
      ...(code === undefined ? {} : { errorCode: code }),
    };
  }
  return { errorName: typeof error };
}
