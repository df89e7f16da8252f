/**
 * The task persistence port and the record it stores. Implementations: `InMemoryTaskStore` here (unit
 * tests, one process) and `DynamoDbTaskStore` in lambda/aws (deployed: every execution environment and the
 * worker share it). A task is addressed by its owner (the principal it is bound to) and its id, so a
 * lookup under another principal finds nothing, exactly like an unknown id.
 */
import type { JsonObject, JsonRpcErrorObject, Principal, ProtocolShape } from '../json/wire.js';

/** Task statuses, spelled as both protocol revisions spell them. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * How long a `working` task keeps its slot in the per-principal cap after its round's deadline: the time
 * an aborted round takes to stop and write its outcome (one store call with its retries). A worker that
 * died frees the slot after it.
 */
export const ROUND_SETTLE_MS = 10_000;

/** Statuses a task never leaves. */
export const terminalStatuses: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Everything needed to run the tool again, in another execution environment if need be. */
export interface TaskCall {
  tool: string;
  arguments: JsonObject;
  shape: ProtocolShape;
  protocolVersion: string;
  /** The caller (subject and scopes, never a token): tools authorize against it when they run. */
  principal?: Principal;
  /** The session the task is bound to (session-ful shape only). */
  sessionId?: string;
  clientCapabilities: JsonObject;
  /** `params._meta` of the creating request. */
  meta: JsonObject;
  /** Input gathered so far (multi-round input, before or during the task). */
  inputResponses?: JsonObject;
  /** Server-side continuation state of the last `input_required` round (never sent to the client). */
  requestState?: string;
}

/** One stored task. Times are epoch milliseconds. */
export interface TaskRecord {
  /** The principal binding: a digest of the subject, or `anonymous`. */
  owner: string;
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** How long the task is kept after creation; also the wire `ttl`/`ttlMs`. */
  ttlMs: number;
  /** `createdAt + ttlMs`: past it the task reads as unknown (the DynamoDB TTL attribute, in seconds). */
  expiresAt: number;
  /**
   * A round must end by then; a task still `working` after it reads as `failed`. Never after `expiresAt`:
   * nothing runs for a task nobody can read. Before the claim it is the claim window's end.
   */
  deadline: number;
  /**
   * The worker that claimed the current round (an invocation id). A second delivery of the same round (an
   * asynchronous invoke may arrive twice) finds it set and leaves the round alone.
   */
  worker?: string;
  pollIntervalMs: number;
  /** Optimistic-concurrency counter, incremented by every successful `replace`. */
  version: number;
  call: TaskCall;
  /** Pending input requests while `input_required`. */
  inputRequests?: JsonObject;
  /** The tool's result (status `completed`). */
  result?: JsonObject;
  /** The JSON-RPC error (status `failed`). */
  error?: JsonRpcErrorObject;
}

/** A page of an owner's tasks, oldest first. */
export interface TaskPage {
  records: TaskRecord[];
  nextCursor?: string;
}

/**
 * Task persistence. `get` returns what is stored, expired or not: the runtime checks `expiresAt` itself on
 * every read because DynamoDB deletes expired items late. Implementations throw
 * `TaskStoreUnavailableError` (errors.ts) when the backend cannot answer.
 */
export interface TaskStore {
  /**
   * Stores a new task; resolves only once a `get` would return it (strongly consistent). Rejects with
   * `TaskExistsError` when the id is taken.
   */
  create(record: TaskRecord): Promise<void>;
  get(owner: string, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Replaces the task if its stored `version` is `expectedVersion` (the new record carries
   * `expectedVersion + 1`). False when another writer got there first or the task is gone.
   */
  replace(record: TaskRecord, expectedVersion: number): Promise<boolean>;
  /** The owner's tasks, oldest first, `limit` at most per page. */
  list(owner: string, limit: number, cursor?: string): Promise<TaskPage>;
  /**
   * How many of the owner's tasks hold a slot at `now`: `input_required` and not expired, or `working` with
   * `deadline + ROUND_SETTLE_MS > now` (a round that may still be running, expired or not).
   */
  countActive(owner: string, now: number): Promise<number>;
}

/** The id is already taken (a 128-bit collision, or a replayed create). */
export class TaskExistsError extends Error {
  constructor() {
    super('task id already exists');
    this.name = 'TaskExistsError';
  }
}
