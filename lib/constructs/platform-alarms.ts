import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { StackConfigError } from '../errors.js';
import { PLATFORM_METRICS, insightsByGroup } from './platform-metrics.js';
import type { MetricScope } from './platform-metrics.js';

/** Share of the function timeout above which the p99 duration alarms (work is about to be cut off). */
export const DURATION_ALARM_RATIO = 0.8;

/** Default share of one source's reads, in percent, that failed in a 5-minute period and counts as bad. */
export const DEFAULT_SOURCE_ERROR_RATE_PERCENT = 25;

/** Props of {@link PlatformAlarms}. */
export interface PlatformAlarmsProps {
  /** The REST API whose 5xx count is watched. */
  readonly api: RestApi;
  /** The platform function whose errors, throttles and duration are watched. */
  readonly handler: IFunction;
  /** The function timeout; the duration alarm fires at {@link DURATION_ALARM_RATIO} of it. */
  readonly timeout: Duration;
  /**
   * ARN of an SNS topic that receives alarm and OK notifications.
   * @default - alarms change state without notifying anyone
   */
  readonly alarmTopicArn?: string;
  /** Namespace and service of the function's own metrics (the per-source alarm reads `SourceErrors`). */
  readonly metrics: MetricScope;
  /**
   * Share of one source's reads, in percent (1-100), that ended in an error (any contract code) in a
   * 5-minute period; 2 such periods out of 3 raise the per-source alarm.
   * @default DEFAULT_SOURCE_ERROR_RATE_PERCENT
   */
  readonly sourceErrorRatePercent?: number;
}

const PERIOD = Duration.minutes(5);

/**
 * CloudWatch alarms an operator needs on day one: the API answering 5xx, the function failing, Lambda
 * throttling it (concurrency exhausted), p99 duration close to the timeout, and any one source failing
 * repeatedly. No data means no traffic, which is healthy.
 */
export class PlatformAlarms extends Construct {
  readonly api5xx: Alarm;
  readonly functionErrors: Alarm;
  readonly functionThrottles: Alarm;
  readonly durationNearTimeout: Alarm;
  readonly sourceErrors: Alarm;

  constructor(scope: Construct, id: string, props: PlatformAlarmsProps) {
    super(scope, id);
    const topic = props.alarmTopicArn ? Topic.fromTopicArn(this, 'Topic', props.alarmTopicArn) : undefined;
    const alarm = (
      alarmId: string,
      description: string,
      metric: IMetric,
      threshold: number,
      periods = 1,
      datapoints = periods,
    ): Alarm => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: periods,
        datapointsToAlarm: datapoints,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (topic) {
        created.addAlarmAction(new SnsAction(topic));
        created.addOkAction(new SnsAction(topic));
      }
      return created;
    };
    const durationThresholdMs = Math.floor(props.timeout.toMilliseconds() * DURATION_ALARM_RATIO);

    this.api5xx = alarm(
      'Api5xx',
      'The API answered 5xx (function crash, integration failure or timeout) in the last 5 minutes.',
      props.api.metricServerError({ period: PERIOD, statistic: 'Sum' }),
      1,
    );
    this.functionErrors = alarm(
      'FunctionErrors',
      'The platform function raised errors (invocations that failed or timed out) in the last 5 minutes.',
      props.handler.metricErrors({ period: PERIOD, statistic: 'Sum' }),
      1,
    );
    this.functionThrottles = alarm(
      'FunctionThrottles',
      'Lambda throttled the platform function: concurrency is exhausted and clients get errors.',
      props.handler.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
      1,
    );
    this.durationNearTimeout = alarm(
      'DurationNearTimeout',
      `p99 duration reached ${DURATION_ALARM_RATIO * 100}% of the function timeout in 2 consecutive periods: ` +
        'responses are about to be cut off.',
      props.handler.metricDuration({ period: PERIOD, statistic: 'p99' }),
      durationThresholdMs,
      2,
    );
    // Source ids come from the directory at run time: a Metrics Insights query grouped by source makes each
    // source a contributor of one alarm, including sources added after deploy. Each read publishes
    // SourceErrors 0 or 1 per source, so its average is the share of the source's reads that failed.
    const ratePercent = props.sourceErrorRatePercent ?? DEFAULT_SOURCE_ERROR_RATE_PERCENT;
    if (!Number.isInteger(ratePercent) || ratePercent < 1 || ratePercent > 100)
      throw new StackConfigError('invalid_context', `source error rate must be 1-100 %, got ${ratePercent}`);
    this.sourceErrors = alarm(
      'SourceErrorRate',
      `${ratePercent}% or more of one source's reads ended in an error (any contract code) in 2 of the last ` +
        '3 five-minute periods; the alarm names the source (source.type, source.id) as its contributor.',
      insightsByGroup(
        props.metrics,
        PLATFORM_METRICS.sourceErrorsPerRead,
        'AVG',
        ['source.type', 'source.id'],
        {
          label: 'Share of reads that failed, per source',
          period: PERIOD,
        },
      ),
      ratePercent / 100,
      3,
      2,
    );
  }
}
