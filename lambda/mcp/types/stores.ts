/** Store ports; implementations: in-memory in lambda/mcp, DynamoDB in lambda/aws. */
import type { JsonObject, JsonRpcErrorObject } from '../json/wire.js';

export interface SessionRecord {
  sessionId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds; the DynamoDB item stores epoch seconds in `expiresAt`. */
  expiresAt: number;
  /** Small string map: negotiated version, initialized marker, log level, principal subject, … */
  data: Record<string, string>;
}

/**
 * Session persistence port. `get` returns whatever is stored, expired or not: the runtime checks expiry
 * on every read *before* the sliding refresh, because DynamoDB deletes expired items up to days late.
 * Implementations throw `SessionStoreUnavailableError` when the backend cannot answer.
 */
export interface SessionStore {
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Upsert. */
  put(record: SessionRecord): Promise<void>;
  delete(sessionId: string): Promise<void>;
}

export interface StoredStreamEvent {
  /** SSE event id, unique per session. */
  eventId: string;
  /** The SSE `data:` payload (empty for the priming event). */
  data: string;
}

/** Resumable-stream persistence port (session-ful SSE replay via Last-Event-ID). */
export interface StreamStore {
  /** Creates a stream for a session and returns its id. */
  createStream(sessionId: string): Promise<string>;
  /** Appends an event and returns its session-unique id. */
  append(sessionId: string, streamId: string, data: string): Promise<string>;
  close(sessionId: string, streamId: string): Promise<void>;
  /** The stream an event id belongs to, or undefined when unknown/expired. */
  streamOf(sessionId: string, eventId: string): Promise<string | undefined>;
  /** Events strictly after `eventId` on its stream, and whether the stream has closed. */
  after(sessionId: string, eventId: string): Promise<{ events: StoredStreamEvent[]; closed: boolean }>;
  deleteSession(sessionId: string): Promise<void>;
}

/** A client's answer to a server-to-client request: exactly one of `result` or `error`. */
export interface ClientReply {
  result?: JsonObject;
  error?: JsonRpcErrorObject;
}

/**
 * Hand-over of client replies between execution environments. The POST carrying a client's JSON-RPC
 * response may be served by another instance than the one whose tool is waiting in `ctx.request()`; it
 * `put`s the reply here and the waiting instance polls `take`. Implementations treat items past their
 * retention as absent and make `take` remove what it returns (at most once per `put`).
 */
export interface ClientReplyStore {
  put(sessionId: string, requestId: string, reply: ClientReply): Promise<void>;
  /** Removes and returns the reply, or undefined when none (or only an expired one) is stored. */
  take(sessionId: string, requestId: string): Promise<ClientReply | undefined>;
}

/**
 * Single-use ledger of issued 2026-07-28 `requestState` bindings (keys are HMAC digests, never the
 * state itself). Implementations must make `take` atomic (DynamoDB: a conditional delete), and must
 * treat records past `expiresAt` as absent even if the backend has not deleted them yet.
 */
export interface RequestStateStore {
  /** Records `key` as redeemable until `expiresAt` (epoch ms). */
  put(key: string, expiresAt: number): Promise<void>;
  /** Removes `key`; true only when it was present and `now < expiresAt` (at most once per `put`). */
  take(key: string, now: number): Promise<boolean>;
}

/** One `notifications/cancelled` as stored: when it arrived and until when it counts (epoch ms). */
export interface CancelMarker {
  cancelledAt: number;
  expiresAt: number;
}

/**
 * Cancel markers shared between execution environments. On Lambda each POST is its own invocation, so a
 * `notifications/cancelled` is served by another instance than the call it names: it `put`s a marker here,
 * and the running call polls `get` (docs/mcp-runtime.md "Cancellation"). Keys are digests that bind the
 * marker to the principal, the session (session-ful) and the request id; they never contain those values.
 */
export interface CancelStore {
  put(key: string, marker: CancelMarker): Promise<void>;
  /** The marker of `key`, or undefined when none is stored. Callers check `expiresAt` themselves. */
  get(key: string): Promise<CancelMarker | undefined>;
}
