/**
 * Runs one handler under the request's abort conditions: `notifications/cancelled`, client disconnect
 * (`ctx.signal`), a timeout and the invocation deadline. Whatever fires first aborts the controller (so
 * cooperative handlers stop) AND settles the call (so a handler that ignores its signal cannot hold the
 * response open). The losing handler promise is still observed, so a late rejection is logged rather than
 * left unhandled.
 */
import { RequestCancelledError, ToolTimeoutError } from '../errors.js';
import { describeError } from '../logger.js';
import type { Logger } from '../types/index.js';

/** Abort conditions of one call. */
export interface GuardOptions {
  controller: AbortController;
  /** Per-call timeout. */
  timeoutMs: number;
  /** Epoch-ms invocation deadline (Lambda), if known. */
  deadline?: number;
  /** Time kept back from the deadline. */
  deadlineReserveMs: number;
  /** The adapter's disconnect signal. */
  external?: AbortSignal;
  clock: () => number;
  logger: Logger;
}

/** Runs `fn`; rejects with the abort reason when the call is aborted first. */
export async function guardedCall<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  options: GuardOptions,
): Promise<T> {
  const { controller, external } = options;
  const signal = controller.signal;
  let budget = options.timeoutMs;
  if (options.deadline !== undefined) {
    budget = Math.min(budget, options.deadline - options.deadlineReserveMs - options.clock());
  }
  const timer = setTimeout(() => controller.abort(new ToolTimeoutError()), Math.max(0, budget));
  const onDisconnect = (): void => controller.abort(new RequestCancelledError('client_disconnected'));
  if (external?.aborted === true) onDisconnect();
  else external?.addEventListener('abort', onDisconnect, { once: true });

  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // A synchronous throw becomes a rejection, so every failure takes one path.
  const work = (async () => fn(signal))();
  try {
    return await Promise.race([work, aborted]);
  } finally {
    clearTimeout(timer);
    external?.removeEventListener('abort', onDisconnect);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    aborted.catch(() => undefined);
    // The handler may settle after an abort won the race: observe it so a late failure is logged only.
    work.catch((error: unknown) => {
      if (signal.aborted) options.logger.debug('handler settled after abort', describeError(error));
    });
  }
}
