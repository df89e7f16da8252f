/**
 * The task port and the record it stores (implementations: `InMemoryTaskStore` in `tasks/`,
 * `DynamoDbTaskStore` in lambda/aws), and the task runtime's configuration. A task is addressed by its owner
 * (the principal it is bound to) and its id, so a lookup under another principal finds nothing, exactly
 * like an unknown id.
 */
import type { JsonObject, JsonRpcErrorObject, Principal, ProtocolShape } from '../json/wire.js';

/** Task statuses, spelled as both protocol revisions spell them. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

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

/** Which task to run: enough for a worker to load it. */
export interface TaskRef {
  owner: string;
  taskId: string;
}

/** What a worker knows about the invocation it runs a round in. */
export interface TaskRoundContext {
  /** Claims the round under this id (the invocation's request id). @default a random id */
  workerId?: string;
  /** The invocation's own deadline (epoch ms): the round's deadline is brought forward to it. */
  deadline?: number;
}

/**
 * Starts a task's execution outside the request that created it. The default runs it in this process
 * (`McpServer.runTask` in the background); a deployment hands it to a worker invocation instead
 * (docs/tasks.md). `launch` resolves once the hand-off is accepted, not when the task ends.
 */
export interface TaskLauncher {
  launch(ref: TaskRef): Promise<void>;
}

export interface TaskRuntimeOptions {
  store: TaskStore;
  /** @default in-process execution */
  launcher?: TaskLauncher;
  /** TTL of a task whose creator asked for none. @default 600000 (MCP_TASK_TTL_MINUTES = 10) */
  defaultTtlMs?: number;
  /** Largest TTL a client may ask for; more is refused with -32602. @default 3600000 */
  maxTtlMs?: number;
  /**
   * Smallest TTL granted; a smaller requested one is raised to it (the answer's `ttl` says so). A task
   * must stay readable long enough to be polled a few times and for its round to start. @default 5000
   */
  minTtlMs?: number;
  /**
   * How long a round may wait for a worker to claim it; a round still unclaimed after it reads as `failed`
   * ("Task could not be started"). Bounds a task whose worker never started (a lost invoke, a store outage
   * as the round started) to seconds rather than its TTL. @default 30000
   */
  claimWindowMs?: number;
  /** Tasks one principal may have `working` or `input_required` at once; more are refused. @default 10 */
  maxActivePerPrincipal?: number;
  /** Suggested polling interval sent to clients. @default 1000 */
  pollIntervalMs?: number;
  /**
   * Budget of one execution round, from its claim; a round also ends when its task's TTL does. A task still
   * `working` past its round's deadline reads as `failed` (its worker died or was cut off).
   * @default 840000 (14 min, under Lambda's 15-min cap)
   */
  executionBudgetMs?: number;
  /** How often a running task re-reads its record to notice a cancellation from elsewhere. @default 1000 */
  cancelPollMs?: number;
  /**
   * 2025-11-25: `_meta["io.modelcontextprotocol/model-immediate-response"]` on `CreateTaskResult`, a hint
   * for the model while the task runs. @default none
   */
  modelImmediateResponse?: string;
  /** Task ids; injected for deterministic tests only. @default 128-bit CSPRNG ids */
  newTaskId?: () => string;
}
