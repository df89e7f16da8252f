/**
 * Server-to-client requests (`sampling/createMessage`, `elicitation/create`, …) sent on a tool call's SSE
 * stream. The client answers with a POSTed JSON-RPC response, which is routed back here by session and
 * server request id.
 *
 * Limitation: the waiting map lives in this process. Behind Lambda, the POST carrying the answer may be
 * served by a different instance than the one running the tool; that answer cannot be routed and the
 * tool's request times out. Tools that need reliable client input on Lambda should use the 2026-07-28
 * `input_required` round trip instead.
 */
import { JsonRpcCode, McpError } from './errors.js';
import type { JsonObject, JsonRpcErrorObject } from './types.js';

interface Waiter {
  resolve: (result: JsonObject) => void;
  reject: (error: Error) => void;
}

/** Pending server-to-client requests of this process. */
export class PendingClientRequests {
  readonly #waiters = new Map<string, Waiter>();
  #next = 0;

  /**
   * Registers a request and returns its id plus the promise of the client's result. The promise rejects
   * on timeout, when `signal` aborts, or with an `McpError` when the client answered with an error.
   */
  create(
    sessionId: string,
    signal: AbortSignal,
    timeoutMs: number,
  ): { id: string; result: Promise<JsonObject> } {
    const id = `srv-${++this.#next}`;
    const k = `${sessionId}\u0000${id}`;
    const result = new Promise<JsonObject>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiters.delete(k);
      };
      const onAbort = (): void => {
        done();
        reject(signal.reason as Error);
      };
      const timer = setTimeout(() => {
        done();
        reject(new McpError(JsonRpcCode.RequestTimeout, 'client did not answer in time'));
      }, timeoutMs);
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.set(k, {
        resolve: (value) => {
          done();
          resolve(value);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
    });
    return { id, result };
  }

  /** Delivers a client's response; false when nothing was waiting for it here. */
  settle(sessionId: string, id: string | number, result?: JsonObject, error?: JsonRpcErrorObject): boolean {
    const waiter = this.#waiters.get(`${sessionId}\u0000${id}`);
    if (waiter === undefined) return false;
    if (error !== undefined) {
      const code = typeof error.code === 'number' ? error.code : JsonRpcCode.InternalError;
      waiter.reject(new McpError(code, typeof error.message === 'string' ? error.message : 'client error'));
    } else {
      waiter.resolve(result ?? {});
    }
    return true;
  }

  get size(): number {
    return this.#waiters.size;
  }
}
