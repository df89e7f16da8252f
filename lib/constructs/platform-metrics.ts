import { Duration } from 'aws-cdk-lib';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';

/**
 * The function's own metrics, as it emits them in CloudWatch embedded metric format (Powertools Metrics):
 * names, units and dimension sets. The dashboard and alarms are built from these, and only these.
 */

/** CloudWatch namespace (`POWERTOOLS_METRICS_NAMESPACE`). */
export const METRICS_NAMESPACE = 'BosMcp';

/** Powertools' default `service` dimension (`POWERTOOLS_SERVICE_NAME`). */
export const METRICS_SERVICE = 'bos-mcp';

/** One metric the function emits and the dimension names it carries (besides `service`). */
export interface PlatformMetric {
  readonly name: string;
  readonly dimensions: readonly string[];
}

const CALL = ['mcp.method.name'];
const SOURCE = ['source.type', 'source.id'];

/** Every metric the dashboard or an alarm reads. */
export const PLATFORM_METRICS = {
  callDuration: { name: 'CallDuration', dimensions: CALL },
  calls: { name: 'Calls', dimensions: [...CALL, 'rpc.response.status_code'] },
  toolCalls: { name: 'ToolCalls', dimensions: ['gen_ai.tool.name', 'bos.completeness'] },
  sourceFirstPageTime: { name: 'SourceFirstPageTime', dimensions: SOURCE },
  sourcePages: { name: 'SourcePages', dimensions: SOURCE },
  sourceRecords: { name: 'SourceRecords', dimensions: SOURCE },
  // Two dimension sets of one name: per read, 0 or the number of failed reads (its Average per source is the
  // source's error rate), and per failure, 1 under its contract code.
  sourceErrorsPerRead: { name: 'SourceErrors', dimensions: SOURCE },
  sourceErrorsByCode: { name: 'SourceErrors', dimensions: [...SOURCE, 'error.type'] },
  sourceRateLimitWait: { name: 'SourceRateLimitWait', dimensions: SOURCE },
  sourceDeadlineHits: { name: 'SourceDeadlineHits', dimensions: SOURCE },
  // Reads a source answered by listing and matching here, because its server refused the filter.
  sourceLocalMatches: { name: 'SourceLocalMatches', dimensions: SOURCE },
  coldStart: { name: 'ColdStart', dimensions: ['function_name'] },
} as const satisfies Record<string, PlatformMetric>;

/**
 * The source cache sync's metrics (`lambda/aws/telemetry/sync-metrics.ts`), per source; the staleness once
 * more under `service` alone, which the one `BaselineStale` alarm reads whatever each source's max_staleness.
 */
export const CACHE_METRICS = {
  syncDuration: { name: 'CacheSyncDuration', dimensions: SOURCE },
  recordsWritten: { name: 'CacheSyncRecordsWritten', dimensions: SOURCE },
  recordsRemoved: { name: 'CacheSyncRecordsRemoved', dimensions: SOURCE },
  syncFailures: { name: 'CacheSyncFailures', dimensions: SOURCE },
  baselineAge: { name: 'CacheBaselineAge', dimensions: SOURCE },
  baselineStaleness: { name: 'CacheBaselineStaleness', dimensions: SOURCE },
  baselineStalenessOverall: { name: 'CacheBaselineStaleness', dimensions: [] },
} as const satisfies Record<string, PlatformMetric>;

/** Where a metric's series are found: the namespace, the service, and the function (for cold starts). */
export interface MetricScope {
  readonly namespace: string;
  readonly service: string;
}

// CloudWatch quotes a dimension name that is not a plain identifier (`"mcp.method.name"`).
const quote = (name: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name}"`);

/**
 * `SEARCH('{namespace,dims…} MetricName="…" service="…"', stat, period)`: every series of the metric,
 * whatever source ids or methods exist at the time. A schema matches only series with exactly these
 * dimensions, so `service` is listed with the metric's own.
 */
export function searchExpression(
  scope: MetricScope,
  metric: PlatformMetric,
  statistic: string,
  options: { label?: string; period?: Duration; filters?: Readonly<Record<string, string>> } = {},
): MathExpression {
  const period = options.period ?? Duration.minutes(5);
  const schema = [scope.namespace, ...[...metric.dimensions, 'service'].map(quote)].join(',');
  const filters = Object.entries(options.filters ?? {}).map(([name, value]) => ` ${quote(name)}="${value}"`);
  const query = `{${schema}} MetricName="${metric.name}" service="${scope.service}"${filters.join('')}`;
  return new MathExpression({
    expression: `SEARCH('${query}', '${statistic}', ${period.toSeconds()})`,
    // `${LABEL}` is CloudWatch's dynamic label for each found series (its dimension values: the source id,
    // the method …); CDK would otherwise label every series with the whole expression.
    label: options.label ?? '${LABEL}',
    period,
  });
}

/**
 * A Metrics Insights query that aggregates a metric per group of dimensions: one series per group, each a
 * contributor of its own in an alarm (a multi-time-series alarm needs GROUP BY and ORDER BY).
 */
export function insightsByGroup(
  scope: MetricScope,
  metric: PlatformMetric,
  aggregate: 'SUM' | 'AVG' | 'MAX',
  groupBy: readonly string[],
  options: { label: string; period?: Duration },
): MathExpression {
  const schema = [`"${scope.namespace}"`, ...[...metric.dimensions, 'service'].map((d) => `"${d}"`)];
  const group = groupBy.map((d) => `"${d}"`).join(', ');
  return new MathExpression({
    expression:
      `SELECT ${aggregate}(${metric.name}) FROM SCHEMA(${schema.join(', ')}) ` +
      `WHERE service = '${scope.service}' GROUP BY ${group} ORDER BY ${aggregate}() DESC`,
    label: options.label,
    period: options.period ?? Duration.minutes(5),
  });
}
