/** An in-memory `RateCounterStore`: one process only (tests, a single-environment server). */
import type { RateCounterStore } from '../types/index.js';

/** Options of {@link InMemoryRateCounterStore}. */
export interface InMemoryRateCounterStoreOptions {
  /** Clock for dropping counters whose `expiresAt` passed. @default Date.now */
  clock?: () => number;
}

/** Counters in a map, dropped once expired (checked on each `take`, so the map stays small). */
export class InMemoryRateCounterStore implements RateCounterStore {
  readonly #counters = new Map<string, { count: number; expiresAt: number }>();
  readonly #clock: () => number;

  constructor(options: InMemoryRateCounterStoreOptions = {}) {
    this.#clock = options.clock ?? Date.now;
  }

  take(key: string, windowStart: number, limit: number, expiresAt: number): Promise<boolean> {
    const nowSeconds = this.#clock() / 1000;
    for (const [name, counter] of this.#counters)
      if (counter.expiresAt <= nowSeconds) this.#counters.delete(name);
    const name = `${key}#${windowStart}`;
    const counter = this.#counters.get(name) ?? { count: 0, expiresAt };
    if (counter.count >= limit) return Promise.resolve(false);
    counter.count += 1;
    this.#counters.set(name, counter);
    return Promise.resolve(true);
  }

  release(key: string, windowStart: number): Promise<void> {
    const counter = this.#counters.get(`${key}#${windowStart}`);
    if (counter !== undefined) counter.count = Math.max(0, counter.count - 1);
    return Promise.resolve();
  }
}
