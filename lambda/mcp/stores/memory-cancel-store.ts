/**
 * In-process `CancelStore`. Enough for one process (tests, `npm run conformance`), where the in-flight map
 * already cancels a call directly; a deployed multi-instance server needs the shared DynamoDB store.
 */
import type { CancelMarker, CancelStore } from '../types/index.js';

/** Options of `InMemoryCancelStore`. */
export interface InMemoryCancelStoreOptions {
  /** Markers kept at most; the oldest are dropped first (bounds memory under abuse). @default 10000 */
  maxEntries?: number;
}

/** A `Map`-backed marker store. */
export class InMemoryCancelStore implements CancelStore {
  readonly #markers = new Map<string, CancelMarker>();
  readonly #maxEntries: number;

  constructor(options: InMemoryCancelStoreOptions = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
  }

  put(key: string, marker: CancelMarker): Promise<void> {
    this.#markers.delete(key);
    this.#markers.set(key, { ...marker });
    // Map iteration is insertion order, so the first keys are the oldest.
    for (const oldest of this.#markers.keys()) {
      if (this.#markers.size <= this.#maxEntries) break;
      this.#markers.delete(oldest);
    }
    return Promise.resolve();
  }

  get(key: string): Promise<CancelMarker | undefined> {
    const marker = this.#markers.get(key);
    return Promise.resolve(marker === undefined ? undefined : { ...marker });
  }
}
