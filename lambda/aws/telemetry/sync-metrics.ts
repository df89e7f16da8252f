/**
 * A source cache sync's metrics (EMF through Powertools Metrics, docs/cache.md "Operations"). Per source
 * (`source.type`, `source.id`): how long it took, records written and removed, whether it failed, and the
 * baseline's age after it, in milliseconds and as a percentage of the source's `max_staleness`. The
 * percentage is also published with the `service` dimension alone, so one alarm at 100 % covers every
 * source whatever its own `max_staleness`.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { blob, DIMENSION } from './call-metrics.js';

/** Sync metric names (same namespace as the call metrics). */
export const SYNC_METRIC = {
  duration: 'CacheSyncDuration',
  written: 'CacheSyncRecordsWritten',
  removed: 'CacheSyncRecordsRemoved',
  failures: 'CacheSyncFailures',
  baselineAge: 'CacheBaselineAge',
  baselineStaleness: 'CacheBaselineStaleness',
} as const;

/** What one source's sync reports (the sources' `SyncOutcome`, matched structurally, plus its policy). */
export interface SyncReport {
  readonly sourceId: string;
  readonly sourceType: string;
  readonly result: string;
  readonly written: number;
  readonly removed: number;
  readonly durationMs: number;
  readonly baselineAgeMs?: number;
  readonly maxStalenessMs?: number;
}

/** Publishes one sync's blobs. A source another worker was syncing (`busy`) reports nothing. */
export function publishSyncMetrics(metrics: Metrics, report: SyncReport): void {
  if (report.result === 'busy') return;
  const staleness =
    report.baselineAgeMs === undefined || !report.maxStalenessMs
      ? undefined
      : (100 * report.baselineAgeMs) / report.maxStalenessMs;
  blob(metrics, { [DIMENSION.sourceType]: report.sourceType, [DIMENSION.sourceId]: report.sourceId }, (m) => {
    m.addMetric(SYNC_METRIC.duration, MetricUnit.Milliseconds, report.durationMs);
    m.addMetric(SYNC_METRIC.written, MetricUnit.Count, report.written);
    m.addMetric(SYNC_METRIC.removed, MetricUnit.Count, report.removed);
    m.addMetric(SYNC_METRIC.failures, MetricUnit.Count, report.result === 'failed' ? 1 : 0);
    if (report.baselineAgeMs !== undefined)
      m.addMetric(SYNC_METRIC.baselineAge, MetricUnit.Milliseconds, report.baselineAgeMs);
    if (staleness !== undefined) m.addMetric(SYNC_METRIC.baselineStaleness, MetricUnit.Percent, staleness);
  });
  // A source without a usable baseline (never synced, or failing) counts as fully stale.
  const overall = staleness ?? (report.result === 'failed' ? 100 : undefined);
  if (overall !== undefined)
    blob(metrics, {}, (m) => m.addMetric(SYNC_METRIC.baselineStaleness, MetricUnit.Percent, overall));
}
