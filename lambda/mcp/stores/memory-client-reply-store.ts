/**
 * In-memory `ClientReplyStore`: enough for one process (tests, `npm run conformance` on node:http), where a
 * reply normally reaches its waiting tool directly and the store only covers the gap when it does not.
 * Replies are kept for a bounded time and in bounded number, so replies nobody takes cannot pile up.
 */
import type { ClientReply, ClientReplyStore } from '../types/index.js';

/** Options of `InMemoryClientReplyStore`. */
export interface InMemoryClientReplyStoreOptions {
  /** How long an untaken reply is kept. @default 300000 (5 min) */
  ttlMs?: number;
  /** Most replies kept at once; the oldest is dropped beyond it. @default 10000 */
  maxEntries?: number;
  /** @default Date.now */
  clock?: () => number;
}

interface Entry {
  reply: ClientReply;
  expiresAt: number;
}

/** A `Map`-backed reply store with per-entry expiry checked on read. */
export class InMemoryClientReplyStore implements ClientReplyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;

  constructor(options: InMemoryClientReplyStoreOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 300_000;
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.#clock = options.clock ?? Date.now;
  }

  put(sessionId: string, requestId: string, reply: ClientReply): Promise<void> {
    const key = keyOf(sessionId, requestId);
    // Re-inserting moves the key to the end, so the Map's order stays oldest-first for eviction.
    this.#entries.delete(key);
    this.#entries.set(key, { reply, expiresAt: this.#clock() + this.#ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    return Promise.resolve();
  }

  take(sessionId: string, requestId: string): Promise<ClientReply | undefined> {
    const key = keyOf(sessionId, requestId);
    const entry = this.#entries.get(key);
    if (entry === undefined) return Promise.resolve(undefined);
    this.#entries.delete(key);
    return Promise.resolve(entry.expiresAt > this.#clock() ? entry.reply : undefined);
  }

  /** Number of stored replies, expired ones included until they are read. */
  get size(): number {
    return this.#entries.size;
  }
}

function keyOf(sessionId: string, requestId: string): string {
  return `${sessionId}\u0000${requestId}`;
}
