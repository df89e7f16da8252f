/**
 * Session lifecycle over the `SessionStore` port: create on `initialize`, load with expiry checked
 * BEFORE the sliding refresh (a refresh must never revive an expired session; DynamoDB deletes expired
 * items up to days late), principal binding, updates and deletion. Store errors propagate to the server,
 * which maps `SessionStoreUnavailableError` to HTTP 503.
 */
import { isClientKey } from '../client-keys.js';
import type { SessionRecord, SessionStore } from '../types/index.js';

/** Keys of `SessionRecord.data` written by the runtime (the fixture seeds use `protocolVersion`). */
export const SessionKey = {
  protocolVersion: 'protocolVersion',
  initialized: 'initialized',
  logLevel: 'logLevel',
  principal: 'principal',
  clientCapabilities: 'clientCapabilities',
} as const;

/** Options of `SessionManager`. */
export interface SessionManagerOptions {
  store: SessionStore;
  ttlMinutes: number;
  clock: () => number;
  newSessionId: () => string;
}

/** Creates, loads, refreshes and deletes sessions. */
export class SessionManager {
  readonly #store: SessionStore;
  readonly #ttlMs: number;
  /** A refresh is written only when the expiry moved by more than this, to keep writes off the hot path. */
  readonly #refreshSlackMs: number;
  readonly #clock: () => number;
  readonly #newSessionId: () => string;

  constructor(options: SessionManagerOptions) {
    this.#store = options.store;
    this.#ttlMs = options.ttlMinutes * 60_000;
    this.#refreshSlackMs = Math.min(60_000, this.#ttlMs / 10);
    this.#clock = options.clock;
    this.#newSessionId = options.newSessionId;
  }

  /** Mints and stores a new session. */
  async create(data: Record<string, string>): Promise<SessionRecord> {
    const now = this.#clock();
    const record: SessionRecord = {
      sessionId: this.#newSessionId(),
      createdAt: now,
      expiresAt: now + this.#ttlMs,
      data,
    };
    await this.#store.put(record);
    return record;
  }

  /**
   * Loads a live session bound to `principal` (the caller's subject, or undefined when unauthenticated).
   * Unknown, expired and foreign-principal sessions all return undefined, so callers answer them alike
   * (404) and a guessed id reveals nothing about other principals' sessions. An id that cannot be a session
   * id (client-keys.ts) is unknown without a store read.
   */
  async load(sessionId: string, principal: string | undefined): Promise<SessionRecord | undefined> {
    if (!isClientKey('sessionId', sessionId)) return undefined;
    const record = await this.#store.get(sessionId);
    if (record === undefined) return undefined;
    const now = this.#clock();
    if (record.expiresAt <= now) return undefined;
    if (record.data[SessionKey.principal] !== principal) return undefined;
    const expiresAt = now + this.#ttlMs;
    if (expiresAt - record.expiresAt > this.#refreshSlackMs) {
      record.expiresAt = expiresAt;
      await this.#store.put(record);
    }
    return record;
  }

  /** Writes changed data of a loaded session (upsert). */
  async update(record: SessionRecord, patch: Record<string, string>): Promise<void> {
    record.data = { ...record.data, ...patch };
    await this.#store.put(record);
  }

  async delete(sessionId: string): Promise<void> {
    await this.#store.delete(sessionId);
  }
}
