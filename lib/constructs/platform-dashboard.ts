import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { AlarmStatusWidget, Dashboard, GraphWidget, Stats, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IAlarm, IMetric, IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { PLATFORM_METRICS, searchExpression } from './platform-metrics.js';
import type { MetricScope } from './platform-metrics.js';

/** Props of {@link PlatformDashboard}. */
export interface PlatformDashboardProps {
  /** Dashboard name (the stack name, so each stage has its own). */
  readonly dashboardName: string;
  /** The REST API whose requests and 4xx/5xx are shown. */
  readonly api: RestApi;
  /** The platform function whose invocations, errors, throttles and duration are shown. */
  readonly handler: IFunction;
  /** Namespace and service of the function's own metrics. */
  readonly metrics: MetricScope;
  /** Alarms shown in a status row at the top. */
  readonly alarms: readonly IAlarm[];
}

const PERIOD = Duration.minutes(5);
const WIDE = 12;
const HEIGHT = 6;

/**
 * One CloudWatch dashboard for an operator: what the endpoint is asked (calls by method and status), how
 * long it takes (p50/p99), how each source behaves (first-page time, errors by contract code, rate-limit
 * waits, deadline hits) and what Lambda does (throttles, cold starts). Source ids come from the directory
 * at run time, so every per-source graph is a SEARCH expression rather than a fixed list.
 */
export class PlatformDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: PlatformDashboardProps) {
    super(scope, id);
    const m = props.metrics;
    const graph = (title: string, left: IMetric[], unit?: string): GraphWidget =>
      new GraphWidget({
        title,
        left,
        width: WIDE,
        height: HEIGHT,
        period: PERIOD,
        ...(unit ? { leftYAxis: { label: unit, showUnits: false, min: 0 } } : {}),
      });
    const rows: IWidget[][] = [
      [
        new TextWidget({
          markdown:
            `# bos-mcp\nCalls, durations and per-source health from the function's \`${m.namespace}\` ` +
            `metrics (service \`${m.service}\`), beside API Gateway and Lambda. See docs/deploy.md "Dashboard".`,
          width: 24,
          height: 2,
        }),
      ],
      [new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 3 })],
      [
        graph('Calls by method and HTTP status', [searchExpression(m, PLATFORM_METRICS.calls, 'Sum')]),
        graph(
          'Call duration p50 / p99 (ms)',
          [
            searchExpression(m, PLATFORM_METRICS.callDuration, 'p50', { label: 'p50 ${LABEL}' }),
            searchExpression(m, PLATFORM_METRICS.callDuration, 'p99', { label: 'p99 ${LABEL}' }),
          ],
          'ms',
        ),
      ],
      [
        graph(
          'Time to first page per source p50 / p99 (ms)',
          [
            searchExpression(m, PLATFORM_METRICS.sourceFirstPageTime, 'p50', { label: 'p50 ${LABEL}' }),
            searchExpression(m, PLATFORM_METRICS.sourceFirstPageTime, 'p99', { label: 'p99 ${LABEL}' }),
          ],
          'ms',
        ),
        graph('Source errors by contract code', [
          searchExpression(m, PLATFORM_METRICS.sourceErrorsByCode, 'Sum'),
        ]),
      ],
      [
        graph('Source error rate (share of reads that failed)', [
          searchExpression(m, PLATFORM_METRICS.sourceErrorsPerRead, 'Average'),
        ]),
        graph('Source pages and records', [
          searchExpression(m, PLATFORM_METRICS.sourcePages, 'Sum', { label: 'pages ${LABEL}' }),
          searchExpression(m, PLATFORM_METRICS.sourceRecords, 'Sum', { label: 'records ${LABEL}' }),
        ]),
      ],
      [
        graph('Tool calls by completeness', [searchExpression(m, PLATFORM_METRICS.toolCalls, 'Sum')]),
        graph('Source rate-limit wait (ms), deadline hits and locally matched reads', [
          searchExpression(m, PLATFORM_METRICS.sourceRateLimitWait, 'Sum', { label: 'wait ${LABEL}' }),
          searchExpression(m, PLATFORM_METRICS.sourceDeadlineHits, 'Sum', {
            label: 'deadline hits ${LABEL}',
          }),
          searchExpression(m, PLATFORM_METRICS.sourceLocalMatches, 'Sum', {
            label: 'local matches ${LABEL}',
          }),
        ]),
      ],
      [
        graph('Lambda throttles, errors and invocations', [
          props.handler.metricThrottles({ period: PERIOD, statistic: Stats.SUM, label: 'Throttles' }),
          props.handler.metricErrors({ period: PERIOD, statistic: Stats.SUM, label: 'Errors' }),
          props.handler.metricInvocations({ period: PERIOD, statistic: Stats.SUM, label: 'Invocations' }),
        ]),
        graph('Cold starts', [
          // This function's only: another stage in the account writes the same namespace and service.
          searchExpression(m, PLATFORM_METRICS.coldStart, 'Sum', {
            filters: { function_name: props.handler.functionName },
          }),
        ]),
      ],
      [
        graph('API requests, 4xx and 5xx', [
          props.api.metricCount({ period: PERIOD, statistic: Stats.SUM, label: 'Requests' }),
          props.api.metricClientError({ period: PERIOD, statistic: Stats.SUM, label: '4xx' }),
          props.api.metricServerError({ period: PERIOD, statistic: Stats.SUM, label: '5xx' }),
        ]),
        graph(
          'Lambda duration p50 / p99 (ms)',
          [
            props.handler.metricDuration({ period: PERIOD, statistic: Stats.percentile(50), label: 'p50' }),
            props.handler.metricDuration({ period: PERIOD, statistic: Stats.percentile(99), label: 'p99' }),
          ],
          'ms',
        ),
      ],
    ];
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      widgets: rows,
    });
  }
}
