/**
 * In-process `RequestStateStore`. Good for one process (tests, local runs, a single warm Lambda
 * instance); a retry that lands on another instance finds nothing and is refused, so deployed
 * multi-instance use needs a shared (DynamoDB-backed) store behind the same port.
 */
import type { RequestStateStore } from '../types/index.js';

/** Options of `InMemoryRequestStateStore`. */
export interface InMemoryRequestStateStoreOptions {
  /** Records kept at most; the oldest are dropped first (bounds memory under abuse). @default 10000 */
  maxEntries?: number;
}

/** A `Map`-backed single-use ledger; expired records are swept lazily on `put`. */
export class InMemoryRequestStateStore implements RequestStateStore {
  readonly #records = new Map<string, number>();
  readonly #maxEntries: number;

  constructor(options: InMemoryRequestStateStoreOptions = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
  }

  put(key: string, expiresAt: number): Promise<void> {
    this.#records.delete(key);
    this.#records.set(key, expiresAt);
    // Map iteration is insertion order, so the first keys are the oldest.
    for (const oldest of this.#records.keys()) {
      if (this.#records.size <= this.#maxEntries) break;
      this.#records.delete(oldest);
    }
    return Promise.resolve();
  }

  take(key: string, now: number): Promise<boolean> {
    const expiresAt = this.#records.get(key);
    if (expiresAt === undefined) return Promise.resolve(false);
    this.#records.delete(key);
    return Promise.resolve(now < expiresAt);
  }
}
