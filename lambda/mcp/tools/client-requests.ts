/**
 * Server-to-client requests (`sampling/createMessage`, `elicitation/create`, …) sent on a tool call's SSE
 * stream. The client answers with a POSTed JSON-RPC response.
 *
 * Behind Lambda that POST is often served by another execution environment than the one running the tool.
 * So a reply is delivered in one of two ways: directly, when the waiting tool is in this process, or
 * through the `ClientReplyStore`, which the waiting side polls until the reply arrives, its timeout or the
 * invocation deadline passes, or the call is aborted. Ids are 128-bit random (not a process counter), so
 * two instances never mint the same id within one session.
 */
import { JsonRpcCode, McpError } from '../errors.js';
import { randomId } from '../ids.js';
import { describeError } from '../logger.js';
import type {
  ClientReply,
  ClientReplyStore,
  JsonObject,
  JsonRpcErrorObject,
  Logger,
} from '../types/index.js';

/** Prefix of the ids this runtime gives its server-to-client requests. */
const ID_PREFIX = 'srv-';
const ID_PATTERN = /^srv-[0-9a-f]{32}$/;

/** Options of `PendingClientRequests`. */
export interface PendingClientRequestsOptions {
  store: ClientReplyStore;
  /** Interval between store polls while a request waits. */
  pollMs: number;
  clock: () => number;
  logger: Logger;
  /** @default `srv-` + 128-bit random hex */
  newId?: () => string;
}

/** How long one request may wait. */
export interface ClientRequestLimits {
  signal: AbortSignal;
  timeoutMs: number;
  /** Absolute epoch-ms invocation deadline; waiting stops `deadlineReserveMs` before it. */
  deadline?: number;
  deadlineReserveMs?: number;
}

interface Waiter {
  deliver: (reply: ClientReply) => void;
}

/** Pending server-to-client requests of this process, with cross-instance delivery via the store. */
export class PendingClientRequests {
  readonly #waiters = new Map<string, Waiter>();
  readonly #options: PendingClientRequestsOptions;

  constructor(options: PendingClientRequestsOptions) {
    this.#options = options;
  }

  /** True for ids this runtime mints; replies with other ids are not ours to store. */
  static isServerRequestId(id: string | number): id is string {
    return typeof id === 'string' && ID_PATTERN.test(id);
  }

  /**
   * Registers a request and returns its id plus the promise of the client's result. The promise rejects
   * with -32001 when time runs out, with the abort reason when `signal` aborts, or with an `McpError` when
   * the client answered with an error.
   */
  create(sessionId: string, limits: ClientRequestLimits): { id: string; result: Promise<JsonObject> } {
    const { store, pollMs, clock, logger } = this.#options;
    const id = this.#options.newId?.() ?? `${ID_PREFIX}${randomId()}`;
    const k = keyOf(sessionId, id);
    let budget = limits.timeoutMs;
    if (limits.deadline !== undefined)
      budget = Math.min(budget, limits.deadline - (limits.deadlineReserveMs ?? 0) - clock());
    const { signal } = limits;
    const result = new Promise<JsonObject>((resolve, reject) => {
      let settled = false;
      let poll: NodeJS.Timeout | undefined;
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        clearTimeout(poll);
        signal.removeEventListener('abort', onAbort);
        this.#waiters.delete(k);
        return true;
      };
      const deliver = (reply: ClientReply): void => {
        if (!finish()) return;
        if (reply.error !== undefined) reject(errorOf(reply.error));
        else resolve(reply.result ?? {});
      };
      const onAbort = (): void => {
        if (finish()) reject(signal.reason as Error);
      };
      const timer = setTimeout(
        () => {
          if (finish()) reject(new McpError(JsonRpcCode.RequestTimeout, 'client did not answer in time'));
        },
        Math.max(0, budget),
      );
      const schedule = (): void => {
        poll = setTimeout(() => void check(), pollMs);
      };
      const check = async (): Promise<void> => {
        if (settled) return;
        try {
          const reply = await store.take(sessionId, id);
          if (reply !== undefined) {
            deliver(reply);
            return;
          }
        } catch (error) {
          // A store hiccup is not the client's fault: keep waiting until the time limit.
          logger.warn('client reply store read failed', describeError(error));
        }
        if (!settled) schedule();
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.set(k, { deliver });
      schedule();
    });
    return { id, result };
  }

  /**
   * Delivers a client's response to a waiter in this process; false when nothing waits for it here (the
   * caller then hands it over through `deliverElsewhere`).
   */
  settle(sessionId: string, id: string | number, result?: JsonObject, error?: JsonRpcErrorObject): boolean {
    const waiter = this.#waiters.get(keyOf(sessionId, String(id)));
    if (waiter === undefined) return false;
    waiter.deliver(error !== undefined ? { error } : { result: result ?? {} });
    return true;
  }

  /**
   * Routes a client's response: directly when the waiting tool runs here, else through the store for the
   * instance that sent the request. Responses to ids this runtime never mints are dropped (the POST is
   * still answered 202, as MCP transports require for responses).
   */
  async route(
    sessionId: string,
    id: string | number,
    result?: JsonObject,
    error?: JsonRpcErrorObject,
  ): Promise<void> {
    if (this.settle(sessionId, id, result, error)) return;
    if (!PendingClientRequests.isServerRequestId(id)) return;
    await this.#options.store.put(sessionId, id, error !== undefined ? { error } : { result: result ?? {} });
  }

  /** Requests waiting in this process. */
  get size(): number {
    return this.#waiters.size;
  }
}

function keyOf(sessionId: string, id: string): string {
  return `${sessionId}\u0000${id}`;
}

function errorOf(error: JsonRpcErrorObject): McpError {
  const code = typeof error.code === 'number' ? error.code : JsonRpcCode.InternalError;
  return new McpError(code, typeof error.message === 'string' ? error.message : 'client error');
}
