/**
 * Domain errors of the federation engine. They carry string codes and are never sent as-is: a
 * {@link SourceError}'s code becomes a terminal status; its message stays inside the engine.
 */
import { SOURCE_ERROR_CODES } from './types.js';
import type { SourceErrorCode } from './types.js';

const codes: ReadonlySet<string> = new Set(SOURCE_ERROR_CODES);

/** Whether `value` is one of the five source error codes of `bos/source-results/v1` §5. */
export function isSourceErrorCode(value: unknown): value is SourceErrorCode {
  return typeof value === 'string' && codes.has(value);
}

/**
 * Thrown by an adapter to end its source with a specific code (e.g. `rate_limited` on HTTP 429).
 * Any other throw ends the source with `source_unavailable`.
 */
export class SourceError extends Error {
  override readonly name = 'SourceError';
  readonly code: SourceErrorCode;

  constructor(code: SourceErrorCode, message: string = code, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Whether `error` is a {@link SourceError} (by shape too, so a second bundled copy of this module still counts). */
export function isSourceError(error: unknown): error is SourceError {
  if (error instanceof SourceError) return true;
  return (
    error instanceof Error &&
    error.name === 'SourceError' &&
    isSourceErrorCode((error as { code?: unknown }).code)
  );
}

/** Why a whole federation run failed instead of producing a result. */
export type FederationErrorCode = 'operation_aborted' | 'sink_failed' | 'invalid_options';

/**
 * The run itself failed: the caller's signal aborted it (client disconnect), the event sink failed, or the
 * options were invalid. No result exists; the caller must not write a final frame from it.
 */
export class FederationError extends Error {
  override readonly name = 'FederationError';
  readonly code: FederationErrorCode;

  constructor(code: FederationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
