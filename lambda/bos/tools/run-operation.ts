import { collectSourceStats, runFederation } from '../../federation/index.js';
import type {
  FederationEvent,
  FederationResult,
  SourceAdapter,
  SourceRef,
  SourceStatsCollector,
} from '../../federation/index.js';
import type { JsonObject, McpRequestContext, StreamingToolContext } from '../../mcp/index.js';
import type { ContextGrant } from '../directory/types.js';
import { MAX_CONCURRENT_SOURCES, negotiatesSourceResults, PAGE_SIZE } from '../extension/negotiation.js';
import { createSourceResultNotifier, sourceResultEvent } from '../extension/source-result-notifier.js';
import type { OperationDef } from '../operations/definitions.js';
import type { BosToolDeps, OperationCompleteness } from './deps.js';

/**
 * Runs a federated operation in a context and returns the authoritative result. When the invocation
 * negotiated `bos/source-results/v1`, every engine event becomes one source notification on the open
 * stream before the final frame (contract §3–§5).
 */
export async function runOperation(
  deps: BosToolDeps,
  operation: OperationDef,
  args: JsonObject,
  grant: ContextGrant,
  ctx: McpRequestContext | StreamingToolContext,
): Promise<FederationResult> {
  await deps.refreshSources?.();
  const sources = grant.sourceIds.map((id) => adapterFor(deps, id));
  const sink =
    'notify' in ctx && negotiatesSourceResults(ctx)
      ? sourceResultSink(ctx, grant)
      : ctx.task !== undefined && 'progress' in ctx
        ? sourceProgress(ctx, sources.length)
        : undefined;
  // Metrics watch the same events the client gets; a JSON answer has no sink, only the collector.
  const stats = deps.telemetry === undefined ? undefined : collectSourceStats();
  const onEvent =
    stats === undefined
      ? sink
      : (event: FederationEvent) => {
          stats.observe(event);
          return sink?.(event);
        };

  let completeness: OperationCompleteness = 'error';
  try {
    const result = await runFederation({
      sources,
      query: operation.toQuery(args),
      pageSize: PAGE_SIZE,
      maxConcurrentSources: MAX_CONCURRENT_SOURCES,
      deadline: operationDeadline(deps, ctx),
      sourceTimeoutMs: grant.sourceTimeoutMs ?? deps.sourceTimeoutMs,
      signal: ctx.signal,
      clock: deps.clock,
      onEvent,
      onLog: (entry) => deps.logger.warn(`federation.${entry.event}`, { ...entry }),
    });
    completeness = result.metadata.completeness;
    deps.logger.info('bos.operation.finished', {
      operation: operation.name,
      sources: sources.length,
      completeness: result.metadata.completeness,
      result_count: result.metadata.result_count,
      source_errors: result.metadata.source_errors.map((e) => e.error.code),
    });
    return result;
  } finally {
    if (stats !== undefined) reportOperation(deps, grant, sources, stats, completeness);
  }
}

/** Hands the run's per-source statistics to the metrics port, with the ids the context names. */
function reportOperation(
  deps: BosToolDeps,
  grant: ContextGrant,
  sources: readonly SourceAdapter[],
  stats: SourceStatsCollector,
  completeness: OperationCompleteness,
): void {
  const key = (s: SourceRef) => `${s.source_type}\u0000${s.source_identity}`;
  const ids = new Map(sources.map((a, i) => [key(a.source), grant.sourceIds[i] ?? a.source.source_identity]));
  try {
    deps.telemetry?.operationFinished({
      completeness,
      sources: stats
        .stats(sources.map((a) => a.source))
        .map((s) => ({ ...s, sourceId: ids.get(key(s.source)) ?? s.source.source_identity })),
    });
  } catch (error) {
    // Metrics never fail a read.
    deps.logger.warn('bos.telemetry.failed', {
      errorName: error instanceof Error ? error.name : typeof error,
    });
  }
}

/**
 * Engine events → source notifications. The returned promise is the stream's backpressure: the engine
 * pulls no further provider page for that source until the SSE consumer has room (STYLE habit 5).
 */
function sourceResultSink(
  ctx: StreamingToolContext,
  grant: ContextGrant,
): (event: FederationEvent) => Promise<void> | undefined {
  const notify = createSourceResultNotifier(ctx.requestId, grant.context, (n) => ctx.notify(n));
  return (event) => {
    notify(sourceResultEvent(event));
    return ctx.ready?.();
  };
}

/**
 * A task has no stream: per-source completion becomes its status message ("4 of 6 sources complete"),
 * which the runtime writes to the task record for `tasks/get`.
 */
function sourceProgress(ctx: StreamingToolContext, total: number): (event: FederationEvent) => undefined {
  let done = 0;
  ctx.progress(0, total, `0 of ${total} sources complete`);
  return (event) => {
    if (event.type === 'page') return undefined;
    done += 1;
    ctx.progress(done, total, `${done} of ${total} sources complete`);
    return undefined;
  };
}

/**
 * Operation budget = min(operation deadline, invocation deadline − reserve) (DESIGN §4): the reserve
 * keeps time to merge and write the final frame before Lambda stops the function.
 */
function operationDeadline(deps: BosToolDeps, ctx: McpRequestContext): number {
  // Real time, like ctx.deadline and the engine's timers; deps.clock only stamps observed_at.
  const own = Date.now() + deps.operationTimeoutMs;
  return ctx.deadline === undefined ? own : Math.min(own, ctx.deadline - deps.deadlineReserveMs);
}

function adapterFor(deps: BosToolDeps, sourceId: string): SourceAdapter {
  const adapter = deps.sources.get(sourceId);
  // A context naming a source the deployment has no adapter for is a configuration fault: a plain
  // Error becomes the runtime's generic internal error, with the detail only in our log.
  if (adapter === undefined) throw new Error(`no adapter configured for source ${sourceId}`);
  return adapter;
}
