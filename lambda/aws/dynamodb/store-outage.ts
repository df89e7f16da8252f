/**
 * Store outages as the runtime's `StoreUnavailableError`, so a DynamoDB-backed store that cannot answer
 * gets the one outage answer (HTTP 503 + `Retry-After` before the response starts, the error in a started
 * stream's final frame) instead of a generic internal error.
 */
import { StoreUnavailableError } from '../../mcp/index.js';

// Errors that mean "DynamoDB cannot answer now" rather than "we sent something wrong". A missing table is
// included: it is an outage of the store as far as a request is concerned.
const UNAVAILABLE_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'ResourceNotFoundException',
  'InternalServerError',
  'ServiceUnavailable',
  'AbortError',
  'TimeoutError',
]);

/**
 * Whether `error` is the backend failing to answer: a server fault, throttling, a missing table, a timeout,
 * or a network error (`ECONNREFUSED`, `ECONNRESET`, …, which the SDK passes on with their system code).
 * Client faults such as a failed condition and the stores' own domain errors are not outages.
 */
export function isStoreOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof StoreUnavailableError || UNAVAILABLE_NAMES.has(error.name)) return true;
  const { $fault, code } = error as { $fault?: unknown; code?: unknown };
  if ($fault === 'server') return true;
  return $fault === undefined && typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/**
 * DynamoDB refused a request as malformed (a client fault such as `ValidationException`: a key over its
 * size limit, an item too large). It is a bug or an unchecked input, never an outage, so it is not a
 * `StoreUnavailableError`: the request gets the generic internal error, not 503. The message names the
 * store and the exception's name only: DynamoDB's own text (which quotes what it refused) stays in `cause`
 * and never reaches a log line or a client.
 */
export class StoreRequestError extends Error {
  override readonly name = 'StoreRequestError';
  readonly code = 'store_request_refused';
  /** Which store: `session`, `task`, `stream`, … */
  readonly store: string;

  constructor(store: string, cause: unknown) {
    const kind = cause instanceof Error ? cause.name : typeof cause;
    super(`${store} store refused the request (${kind})`, { cause });
    this.store = store;
  }
}

/** Whether `error` is a refusal by the AWS service itself (an SDK service exception that is no outage). */
export function isStoreRefusal(error: unknown): boolean {
  if (!(error instanceof Error) || isStoreOutage(error)) return false;
  const { $fault, $metadata } = error as { $fault?: unknown; $metadata?: unknown };
  return $fault === 'client' || (typeof $metadata === 'object' && $metadata !== null);
}

/**
 * What a failed backend call becomes in a store that treats every failure as an outage unless the service
 * refused the request: a refusal → `StoreRequestError`, anything else → `outage(cause)`.
 */
export function storeFailure(store: string, error: unknown, outage: (cause: unknown) => Error): Error {
  return isStoreRefusal(error) ? new StoreRequestError(store, error) : outage(error);
}

/**
 * Wraps a store so every method that rejects with an outage rejects with `StoreUnavailableError(store)`
 * and one that DynamoDB refused rejects with `StoreRequestError` (the backend's error kept as `cause`,
 * never shown to a client or logged). The store's own errors pass through unchanged.
 */
export function reportingOutages<T extends object>(store: string, target: T): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (!(result instanceof Promise)) return result;
        return result.catch((error: unknown) => {
          if (error instanceof StoreUnavailableError) throw error;
          if (isStoreOutage(error))
            throw new StoreUnavailableError(store, `${store} store unavailable`, { cause: error });
          throw isStoreRefusal(error) ? new StoreRequestError(store, error) : error;
        });
      };
    },
  });
}
