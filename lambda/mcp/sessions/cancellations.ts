/**
 * `notifications/cancelled` across execution environments. On Lambda every POST is its own invocation, so
 * the notification is served by another instance than the call it names, and the in-process map
 * (`in-flight.ts`) finds nothing there. The notification therefore also writes a marker to the shared
 * `CancelStore`, and every running `tools/call` polls the store for its own marker (as task rounds poll
 * their task record) and aborts its signal when one appears.
 *
 * The marker is bound to what only the caller holds: the principal and, session-ful, the session; the key
 * is a digest of those and the request id. A stateless call without a principal has nothing that binds a
 * marker to its caller, so it is neither written nor watched (anyone could otherwise cancel it).
 * Request ids may be reused (a stateless client starts again at 1): a call honours only a marker written
 * after it began, less `graceMs` for a notification that overtook its own request on the way in.
 */
import { createHash } from 'node:crypto';
import { RequestCancelledError } from '../errors.js';
import { describeError } from '../logger.js';
import type { CancelStore, JsonRpcId, Logger, Principal } from '../types/index.js';

/** Who may cancel: the caller's principal and, session-ful, its session. */
export interface CancelScope {
  principal: Principal | undefined;
  sessionId?: string | undefined;
}

/** Options of {@link Cancellations}. */
export interface CancellationsOptions {
  store: CancelStore;
  /** How often a running call reads its marker. */
  pollMs: number;
  /** How long a marker is kept (at least the longest call). */
  ttlMs: number;
  /** How much older than the call a marker may be and still count. */
  graceMs: number;
  clock: () => number;
  logger: Logger;
}

/** Writes and watches cancel markers. */
export class Cancellations {
  readonly #options: CancellationsOptions;

  constructor(options: CancellationsOptions) {
    this.#options = options;
  }

  get pollMs(): number {
    return this.#options.pollMs;
  }

  /** Records a cancellation of `requestId` for this scope; unknown or finished ids cost one write. */
  async cancel(scope: CancelScope, requestId: JsonRpcId): Promise<void> {
    const key = keyOf(scope, requestId);
    if (key === undefined) return;
    const now = this.#options.clock();
    await this.#options.store.put(key, { cancelledAt: now, expiresAt: now + this.#options.ttlMs });
  }

  /**
   * Polls for a marker of `requestId` in this scope until the returned function is called, and aborts
   * `controller` (reason: `RequestCancelledError('cancelled')`) when one appears. A read that fails is
   * logged once and the watch goes on: a store hiccup must not end the call it watches.
   */
  watch(scope: CancelScope, requestId: JsonRpcId, controller: AbortController): () => void {
    const key = keyOf(scope, requestId);
    if (key === undefined) return () => undefined;
    const { store, pollMs, graceMs, clock, logger } = this.#options;
    const since = clock() - graceMs;
    let stopped = false;
    let reading = false;
    let warned = false;
    const timer = setInterval(() => {
      if (reading || stopped) return;
      reading = true;
      store
        .get(key)
        .then((marker) => {
          const now = clock();
          if (stopped || marker === undefined || marker.expiresAt <= now || marker.cancelledAt < since)
            return;
          controller.abort(new RequestCancelledError('cancelled'));
        })
        .catch((error: unknown) => {
          if (warned) return;
          warned = true;
          logger.warn('cancel marker read failed', describeError(error));
        })
        .finally(() => {
          reading = false;
        });
    }, pollMs);
    const stop = (): void => {
      stopped = true;
      clearInterval(timer);
      controller.signal.removeEventListener('abort', stop);
    };
    // Whatever ends the call first (its result, a timeout, a disconnect) ends the watch.
    controller.signal.addEventListener('abort', stop, { once: true });
    return stop;
  }
}

/** The marker key: a digest, so the store never holds a subject, a session id or a request id. */
function keyOf(scope: CancelScope, requestId: JsonRpcId): string | undefined {
  if (scope.principal === undefined && scope.sessionId === undefined) return undefined;
  return createHash('sha256')
    .update(
      JSON.stringify([
        scope.principal?.subject ?? null,
        scope.sessionId ?? null,
        typeof requestId,
        requestId,
      ]),
    )
    .digest('base64url');
}
