/** The rate limiter's counter port and its options; implementations: in memory in `rate-limit/`, DynamoDB in lambda/aws. */

/**
 * Fixed-window request counters every execution environment shares. `take` must be one atomic step of the
 * backend (DynamoDB: one conditional `UpdateItem ... ADD`), so two environments can never both admit the
 * last request of a window.
 */
export interface RateCounterStore {
  /**
   * Counts one request against `key` in the window that started at `windowStart` (epoch ms), unless that
   * window already holds `limit` requests. Resolves true when the request was counted (admitted), false when
   * the window is full (nothing is counted then). `expiresAt` (epoch seconds) is when the counter may be
   * dropped. Rejects when the backend cannot answer.
   */
  take(key: string, windowStart: number, limit: number, expiresAt: number): Promise<boolean>;
  /**
   * Uncounts one request `take` counted in that window (the request was refused by another bucket); never
   * creates a counter. Rejects when the backend cannot answer.
   */
  release(key: string, windowStart: number): Promise<void>;
}

/** The two buckets a request counts against. */
export type RateBucket = 'principal' | 'tenant';

/** What the limiter reports for metrics: a refusal, or a counter store that could not answer. */
export type RateLimitEvent = { kind: 'limited'; bucket: RateBucket } | { kind: 'store_unavailable' };

/** Options of the runtime's rate limiter (`McpServerOptions.rateLimit`). */
export interface RateLimitOptions {
  store: RateCounterStore;
  /** Requests one principal (the token's `sub`) may make per window; 0 turns the bucket off. */
  principalLimit: number;
  /**
   * Requests all principals of one tenant (`Principal.tenant`) may make together per window; 0 turns the
   * bucket off. A principal without a tenant is a tenant of its own: its requests are never pooled with
   * anyone else's.
   */
  tenantLimit: number;
  /** Window length. @default 60000 */
  windowMs?: number;
  /**
   * Longest wait for the counter store; past it the request is admitted as in an outage, so a slow store
   * adds at most this much to a request. Generous next to a warm round trip (milliseconds), because a cold
   * environment's first one also opens its connection. @default 1000
   */
  timeoutMs?: number;
  /** Receives each refusal and each store failure (metrics); warnings go to the server's logger. @default none */
  onEvent?: (event: RateLimitEvent) => void;
}
