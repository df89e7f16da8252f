import type { SourceAdapter } from '../../federation/index.js';
import type { JsonObject, JsonValue, Logger } from '../../mcp/index.js';
import type { Directory } from '../directory/types.js';

/** What the BOS tools need from the composition root. */
export interface BosToolDeps {
  directory: Directory;
  /** Source id (as named by a context) → adapter. A context can only read the ids it lists. */
  sources: ReadonlyMap<string, SourceAdapter>;
  /** Brings `sources` up to date before an operation picks its adapters (never rejects). */
  refreshSources?: () => Promise<void>;
  /** Validates arguments against a schema; rejects with -32602. */
  validate: (schema: JsonObject, args: JsonValue | undefined) => Promise<JsonObject>;
  /** Time kept back from the invocation deadline for the final frame (`BOS_DEADLINE_RESERVE_MS`). */
  deadlineReserveMs: number;
  /** Budget of one operation, before the invocation deadline caps it. */
  operationTimeoutMs: number;
  /** Per-source timeout when neither the adapter nor the context sets one. */
  sourceTimeoutMs: number;
  logger: Logger;
  /** `observed_at` source only; deadlines use `Date.now`. */
  clock: () => number;
}
