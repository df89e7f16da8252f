/**
 * A `Map` that forgets its oldest entry once full: the dev issuer keeps clients, codes and refresh tokens
 * in memory, and a client looping on registration must not grow the process without bound.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #limit: number;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    this.#limit = limit;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Adds or replaces `key`, evicting the oldest entries (insertion order) beyond the limit. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#limit) break;
      this.#entries.delete(oldest);
    }
  }

  /** Removes `key`, returning what it held. */
  take(key: K): V | undefined {
    const value = this.#entries.get(key);
    this.#entries.delete(key);
    return value;
  }

  /** Removes every entry `matches` selects. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, value] of this.#entries) if (matches(value)) this.#entries.delete(key);
  }
}
