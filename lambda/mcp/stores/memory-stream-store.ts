/**
 * In-memory `StreamStore`: resumable SSE event logs per session. Event ids are a per-session counter
 * ("1", "2", …, as fixture sse-resumable-replay.json pins), so ids are unique across all streams of a
 * session and a `Last-Event-ID` always names exactly one stream.
 */
import { randomId } from '../ids.js';
import type { StoredStreamEvent, StreamStore } from '../types/index.js';

/** Options of `InMemoryStreamStore`. */
export interface InMemoryStreamStoreOptions {
  /** Stream id source (fixture `stream_id_sequence`). @default 128-bit random ids */
  newStreamId?: () => string;
  /** Replay retention (MCP_STREAM_TTL_MINUTES). @default 60 */
  ttlMinutes?: number;
  /** @default Date.now */
  clock?: () => number;
}

interface StreamState {
  events: StoredStreamEvent[];
  closed: boolean;
  expiresAt: number;
}

interface SessionStreams {
  counter: number;
  streams: Map<string, StreamState>;
  streamOfEvent: Map<string, string>;
}

/** A `Map`-backed stream store with per-append retention. */
export class InMemoryStreamStore implements StreamStore {
  readonly #sessions = new Map<string, SessionStreams>();
  readonly #newStreamId: () => string;
  readonly #ttlMs: number;
  readonly #clock: () => number;

  constructor(options: InMemoryStreamStoreOptions = {}) {
    this.#newStreamId = options.newStreamId ?? randomId;
    this.#ttlMs = (options.ttlMinutes ?? 60) * 60_000;
    this.#clock = options.clock ?? Date.now;
  }

  #session(sessionId: string): SessionStreams {
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = { counter: 0, streams: new Map(), streamOfEvent: new Map() };
      this.#sessions.set(sessionId, session);
    }
    return session;
  }

  #live(sessionId: string, streamId: string): StreamState | undefined {
    const stream = this.#sessions.get(sessionId)?.streams.get(streamId);
    return stream !== undefined && stream.expiresAt > this.#clock() ? stream : undefined;
  }

  createStream(sessionId: string): Promise<string> {
    const session = this.#session(sessionId);
    const now = this.#clock();
    // Drop expired streams of this session so a long-lived instance does not grow without bound.
    for (const [id, stream] of session.streams) {
      if (stream.expiresAt <= now) {
        session.streams.delete(id);
        for (const event of stream.events) session.streamOfEvent.delete(event.eventId);
      }
    }
    const streamId = this.#newStreamId();
    session.streams.set(streamId, { events: [], closed: false, expiresAt: now + this.#ttlMs });
    return Promise.resolve(streamId);
  }

  append(sessionId: string, streamId: string, data: string): Promise<string> {
    const session = this.#sessions.get(sessionId);
    const stream = session?.streams.get(streamId);
    if (session === undefined || stream === undefined) {
      return Promise.reject(new Error('stream not found'));
    }
    const eventId = String(++session.counter);
    stream.events.push({ eventId, data });
    stream.expiresAt = this.#clock() + this.#ttlMs;
    session.streamOfEvent.set(eventId, streamId);
    return Promise.resolve(eventId);
  }

  close(sessionId: string, streamId: string): Promise<void> {
    const stream = this.#sessions.get(sessionId)?.streams.get(streamId);
    if (stream !== undefined) stream.closed = true;
    return Promise.resolve();
  }

  streamOf(sessionId: string, eventId: string): Promise<string | undefined> {
    const streamId = this.#sessions.get(sessionId)?.streamOfEvent.get(eventId);
    if (streamId === undefined) return Promise.resolve(undefined);
    return Promise.resolve(this.#live(sessionId, streamId) === undefined ? undefined : streamId);
  }

  async after(sessionId: string, eventId: string): Promise<{ events: StoredStreamEvent[]; closed: boolean }> {
    const streamId = await this.streamOf(sessionId, eventId);
    const stream = streamId === undefined ? undefined : this.#live(sessionId, streamId);
    if (stream === undefined) return { events: [], closed: true };
    const index = stream.events.findIndex((event) => event.eventId === eventId);
    return { events: stream.events.slice(index + 1), closed: stream.closed };
  }

  deleteSession(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
    return Promise.resolve();
  }
}
