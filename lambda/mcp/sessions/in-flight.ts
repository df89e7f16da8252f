/**
 * In-flight requests per session, so `notifications/cancelled` and DELETE can abort them. The map is
 * in-process: a cancellation that reaches a different Lambda instance than the call finds nothing and is
 * ignored, as the MCP cancellation utility allows ("the request may have already completed").
 */
import { RequestCancelledError } from '../errors.js';
import type { JsonRpcId } from '../types/index.js';

function key(sessionId: string, requestId: JsonRpcId): string {
  return `${sessionId}\u0000${typeof requestId}:${requestId}`;
}

/** Abort controllers of running requests, keyed by session and JSON-RPC id. */
export class InFlightRequests {
  readonly #controllers = new Map<string, { sessionId: string; controller: AbortController }>();

  /** Tracks a request; returns the function that stops tracking it. */
  add(sessionId: string, requestId: JsonRpcId, controller: AbortController): () => void {
    const k = key(sessionId, requestId);
    this.#controllers.set(k, { sessionId, controller });
    return () => {
      if (this.#controllers.get(k)?.controller === controller) this.#controllers.delete(k);
    };
  }

  /** Aborts one request; unknown or finished ids are ignored. */
  cancel(sessionId: string, requestId: JsonRpcId): boolean {
    const entry = this.#controllers.get(key(sessionId, requestId));
    entry?.controller.abort(new RequestCancelledError('cancelled'));
    return entry !== undefined;
  }

  /** Aborts every request of a session (DELETE). */
  cancelSession(sessionId: string): void {
    for (const entry of this.#controllers.values()) {
      if (entry.sessionId === sessionId) entry.controller.abort(new RequestCancelledError('cancelled'));
    }
  }

  get size(): number {
    return this.#controllers.size;
  }
}
