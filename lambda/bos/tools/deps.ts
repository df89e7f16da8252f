import type { SourceAdapter, SourceReadStats } from '../../federation/index.js';
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
  /** Where each federated operation reports its outcome for the operator's metrics. @default none */
  telemetry?: OperationTelemetry;
  /** `observed_at` source only; deadlines use `Date.now`. */
  clock: () => number;
}

/** How a federated operation ended, for metrics: `error` when it produced no result at all. */
export type OperationCompleteness = 'complete' | 'partial' | 'error';

/** One federated operation's report: never records, arguments, principals or provider text. */
export interface OperationReport {
  readonly completeness: OperationCompleteness;
  /** Every source the operation read (or meant to read), with the id its context names. */
  readonly sources: readonly (SourceReadStats & { readonly sourceId: string })[];
}

/**
 * The metrics port of the BOS tools. The deployed entry records reports against the call being served
 * (`lambda/aws`); anything else may leave it out.
 */
export interface OperationTelemetry {
  operationFinished(report: OperationReport): void;
}
