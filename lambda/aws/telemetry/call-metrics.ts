/**
 * A finished {@link CallRecord} as CloudWatch embedded-metric-format (EMF) lines through Powertools
 * Metrics, with the names operators' dashboards and alarms use (docs/operations.md "Metrics").
 *
 * One Powertools EMF blob has one metric directive, and each of its dimension sets applies to every
 * metric in it. So each group of metrics that shares one dimension set is its own blob: call duration by
 * method; calls by method and status; tool calls by tool and completeness; per source its figures, and its
 * errors by contract code. Every blob also carries Powertools' `service` dimension. Building and
 * publishing a blob is synchronous, so calls served side by side in one process never mix their blobs.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { CallRecord, SourceTally } from './call-record.js';

/** Metric names (CloudWatch namespace `POWERTOOLS_METRICS_NAMESPACE`, default {@link DEFAULT_NAMESPACE}). */
export const METRIC = {
  callDuration: 'CallDuration',
  calls: 'Calls',
  toolCalls: 'ToolCalls',
  sourceFirstPageTime: 'SourceFirstPageTime',
  sourcePages: 'SourcePages',
  sourceRecords: 'SourceRecords',
  sourceErrors: 'SourceErrors',
  sourceRateLimitWait: 'SourceRateLimitWait',
  sourceLocalMatches: 'SourceLocalMatches',
  sourceDeadlineHits: 'SourceDeadlineHits',
  rateLimited: 'RateLimited',
  rateLimitStoreUnavailable: 'RateLimitStoreUnavailable',
} as const;

/** Dimension (and call log key) names: the OpenTelemetry MCP semantic conventions where one exists. */
export const DIMENSION = {
  method: 'mcp.method.name',
  status: 'rpc.response.status_code',
  tool: 'gen_ai.tool.name',
  completeness: 'bos.completeness',
  sourceType: 'source.type',
  sourceId: 'source.id',
  errorType: 'error.type',
  rateLimitBucket: 'bos.rate_limit.bucket',
} as const;

/** CloudWatch namespace when `POWERTOOLS_METRICS_NAMESPACE` is unset. */
export const DEFAULT_NAMESPACE = 'BosMcp';

/** The method dimension of a call the runtime never reached (refused before it, or not parsed). */
export const UNKNOWN = 'unknown';

/** Publishes the record's blobs; `durationMs` is the call's, measured by the entry. */
export function publishCallMetrics(metrics: Metrics, record: CallRecord, durationMs: number): void {
  const method = record.attributes.method ?? UNKNOWN;
  blob(metrics, { [DIMENSION.method]: method }, (m) =>
    m.addMetric(METRIC.callDuration, MetricUnit.Milliseconds, durationMs),
  );
  blob(metrics, { [DIMENSION.method]: method, [DIMENSION.status]: String(record.status ?? 0) }, (m) =>
    m.addMetric(METRIC.calls, MetricUnit.Count, 1),
  );
  const tool = record.attributes.toolName;
  if (tool !== undefined)
    blob(metrics, { [DIMENSION.tool]: tool, [DIMENSION.completeness]: record.completeness ?? 'error' }, (m) =>
      m.addMetric(METRIC.toolCalls, MetricUnit.Count, 1),
    );
  for (const source of record.sources.values()) publishSource(metrics, source);
  if (record.rateLimited !== undefined)
    blob(metrics, { [DIMENSION.rateLimitBucket]: record.rateLimited }, (m) =>
      m.addMetric(METRIC.rateLimited, MetricUnit.Count, 1),
    );
  // Published only when it happens: any datapoint at all is the signal (the limiter is failing open).
  if (record.rateLimitStoreUnavailable)
    blob(metrics, {}, (m) => m.addMetric(METRIC.rateLimitStoreUnavailable, MetricUnit.Count, 1));
}

function publishSource(metrics: Metrics, source: SourceTally): void {
  const where = { [DIMENSION.sourceType]: source.type, [DIMENSION.sourceId]: source.id };
  blob(metrics, where, (m) => {
    if (source.firstPageMs !== undefined)
      m.addMetric(METRIC.sourceFirstPageTime, MetricUnit.Milliseconds, source.firstPageMs);
    m.addMetric(METRIC.sourcePages, MetricUnit.Count, source.pages);
    m.addMetric(METRIC.sourceRecords, MetricUnit.Count, source.records);
    // 0 or the number of failed reads: its Average per source is the source's error rate.
    m.addMetric(METRIC.sourceErrors, MetricUnit.Count, source.errors.length);
    m.addMetric(METRIC.sourceRateLimitWait, MetricUnit.Milliseconds, source.rateLimitWaitMs);
    m.addMetric(METRIC.sourceLocalMatches, MetricUnit.Count, source.localMatches);
    m.addMetric(METRIC.sourceDeadlineHits, MetricUnit.Count, source.deadlineHits);
  });
  for (const code of source.errors)
    blob(metrics, { ...where, [DIMENSION.errorType]: code }, (m) =>
      m.addMetric(METRIC.sourceErrors, MetricUnit.Count, 1),
    );
}

/** One EMF line: one dimension set (plus `service`), the metrics `add` stores, published at once. */
export function blob(metrics: Metrics, dimensions: Record<string, string>, add: (m: Metrics) => void): void {
  metrics.addDimensions(dimensions);
  try {
    add(metrics);
  } finally {
    // Also clears the dimension set, so a failed blob never leaks into the next one.
    metrics.publishStoredMetrics();
  }
}
