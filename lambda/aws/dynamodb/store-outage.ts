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
 * Wraps a store so every method that rejects with an outage rejects with `StoreUnavailableError(store)`
 * (the backend's error kept as `cause`, never shown to a client). Other failures pass through unchanged.
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
          if (error instanceof StoreUnavailableError || !isStoreOutage(error)) throw error;
          throw new StoreUnavailableError(store, `${store} store unavailable`, { cause: error });
        });
      };
    },
  });
}
