/**
 * Per-principal and per-tenant request limits over shared fixed-window counters (docs/mcp-runtime.md "Rate
 * limits"). One counter per bucket and window, counted with one atomic store call per bucket; the calls of
 * both buckets go out together, so an admitted request waits for one round trip to the store.
 *
 * A request refused by one bucket counts in neither: the other bucket's count is given back before the
 * refusal is answered. Without that, a principal refused by its own limit would keep spending its tenant's
 * share, and one caller could starve every other caller of its tenant.
 *
 * A fixed window admits up to `limit` requests in each window, so a burst across a window boundary can reach
 * twice the limit within one window's length; the price of one write per bucket instead of a read and a write.
 */
import { createHash } from 'node:crypto';
import { describeError } from '../logger.js';
import type {
  Logger,
  Principal,
  RateBucket,
  RateCounterStore,
  RateLimitEvent,
  RateLimitOptions,
} from '../types/index.js';

/** The limiter's answer for one request. */
export type RateDecision =
  { admitted: true } | { admitted: false; bucket: RateBucket; retryAfterSeconds: number };

/**
 * Counter keys never hold a subject or tenant as given: a digest keeps personal identifiers out of the
 * counter table and bounds the key's length whatever the token says.
 */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

const timedOut = Symbol('timed out');

/** One bucket's answer: counted, full (nothing counted), or no answer (admitted, nothing known). */
type TakeOutcome = 'counted' | 'full' | 'unavailable';

/** Checks requests against the configured buckets. */
export class RateLimiter {
  readonly #store: RateCounterStore;
  readonly #principalLimit: number;
  readonly #tenantLimit: number;
  readonly #windowMs: number;
  readonly #timeoutMs: number;
  readonly #onEvent: ((event: RateLimitEvent) => void) | undefined;
  readonly #logger: Logger;
  readonly #clock: () => number;

  constructor(options: RateLimitOptions, defaults: { logger: Logger; clock: () => number }) {
    this.#store = options.store;
    this.#principalLimit = Math.max(0, Math.floor(options.principalLimit));
    this.#tenantLimit = Math.max(0, Math.floor(options.tenantLimit));
    this.#windowMs = Math.max(1000, options.windowMs ?? 60_000);
    this.#timeoutMs = Math.max(1, options.timeoutMs ?? 1000);
    this.#onEvent = options.onEvent;
    this.#logger = defaults.logger;
    this.#clock = defaults.clock;
  }

  /** Counts the request against the caller's buckets and says whether it may proceed. */
  async check(principal: Principal): Promise<RateDecision> {
    const now = this.#clock();
    const windowStart = now - (now % this.#windowMs);
    const windowEnd = windowStart + this.#windowMs;
    // The counter outlives its window a little, so a late request of that window still finds it.
    const expiresAt = Math.ceil(windowEnd / 1000) + 60;
    const buckets: { bucket: RateBucket; key: string; limit: number }[] = [];
    if (this.#principalLimit > 0)
      buckets.push({
        bucket: 'principal',
        key: `p#${digest(principal.subject)}`,
        limit: this.#principalLimit,
      });
    if (this.#tenantLimit > 0) {
      // A principal without a tenant is a tenant of its own, in a key space no tenant value can reach.
      const tenant = principal.tenant === undefined ? `sub:${principal.subject}` : `tid:${principal.tenant}`;
      buckets.push({ bucket: 'tenant', key: `t#${digest(tenant)}`, limit: this.#tenantLimit });
    }
    const outcomes = await Promise.all(
      buckets.map(({ key, limit }) => this.#take(key, windowStart, limit, expiresAt)),
    );
    const full = buckets.find((_, index) => outcomes[index] === 'full');
    if (full === undefined) return { admitted: true };
    await Promise.all(
      buckets
        .filter((_, index) => outcomes[index] === 'counted')
        .map(({ key }) => this.#release(key, windowStart)),
    );
    this.#report({ kind: 'limited', bucket: full.bucket });
    return {
      admitted: false,
      bucket: full.bucket,
      retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    };
  }

  /**
   * One bucket's count. A store that fails or answers too late admits the request (fails open): the limiter
   * guards capacity, and an outage of its counters must not become an outage of the endpoint. The warning
   * and the `store_unavailable` event make the lapse visible.
   */
  async #take(key: string, windowStart: number, limit: number, expiresAt: number): Promise<TakeOutcome> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof timedOut>((resolve) => {
      timer = setTimeout(() => resolve(timedOut), this.#timeoutMs);
    });
    try {
      const counted = await Promise.race([this.#store.take(key, windowStart, limit, expiresAt), deadline]);
      if (counted !== timedOut) return counted ? 'counted' : 'full';
      this.#logger.warn('rate limit store too slow; request admitted', { timeoutMs: this.#timeoutMs });
    } catch (error) {
      this.#logger.warn('rate limit store unavailable; request admitted', describeError(error));
    } finally {
      clearTimeout(timer);
    }
    this.#report({ kind: 'store_unavailable' });
    return 'unavailable';
  }

  /** Gives a count back; a failure leaves the bucket one request fuller until its window ends. */
  async #release(key: string, windowStart: number): Promise<void> {
    try {
      await this.#store.release(key, windowStart);
    } catch (error) {
      this.#logger.warn(
        'rate limit store unavailable; a refused request stays counted',
        describeError(error),
      );
      this.#report({ kind: 'store_unavailable' });
    }
  }

  /** Telemetry never fails a request. */
  #report(event: RateLimitEvent): void {
    try {
      this.#onEvent?.(event);
    } catch (error) {
      this.#logger.warn('rate limit telemetry failed', describeError(error));
    }
  }
}
