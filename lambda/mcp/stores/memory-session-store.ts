/**
 * In-memory `SessionStore` (the default, and the fixture runner's seeded store). State lives in this
 * Lambda instance only; deployed stacks use the DynamoDB implementation in `lambda/aws`.
 */
import type { SessionRecord, SessionStore } from '../types/index.js';

/** Options of `InMemorySessionStore`. */
export interface InMemorySessionStoreOptions {
  /** Records present from the start (tests and fixture seeds). */
  seed?: readonly SessionRecord[];
}

/** A `Map`-backed session store. `get` returns expired records too: expiry is the runtime's check. */
export class InMemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();

  constructor(options: InMemorySessionStoreOptions = {}) {
    for (const record of options.seed ?? []) void this.put(record);
  }

  get(sessionId: string): Promise<SessionRecord | undefined> {
    const record = this.#records.get(sessionId);
    // A copy, so callers cannot mutate stored state without `put` (the DynamoDB store behaves the same).
    return Promise.resolve(record === undefined ? undefined : { ...record, data: { ...record.data } });
  }

  put(record: SessionRecord): Promise<void> {
    this.#records.set(record.sessionId, { ...record, data: { ...record.data } });
    return Promise.resolve();
  }

  delete(sessionId: string): Promise<void> {
    this.#records.delete(sessionId);
    return Promise.resolve();
  }

  /** Number of stored records (expired ones included); for tests. */
  get size(): number {
    return this.#records.size;
  }
}
