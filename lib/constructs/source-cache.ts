import { Aws, Duration } from 'aws-cdk-lib';
import type { RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, GraphWidget, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunctionResource } from 'aws-cdk-lib/aws-lambda';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { TableSchema } from '../table-schemas.js';
import { CACHE_METRICS, searchExpression } from './platform-metrics.js';
import type { PlatformMetric } from './platform-metrics.js';
import type { MetricScope } from './platform-metrics.js';

/** The sync event the schedule sends: every cached source (`lambda/aws/edge/cache-sync-event.ts`). */
export const CACHE_SYNC_EVENT = { kind: 'bos.cache.sync' } as const;

/** The DynamoDB calls of `DynamoDbBaselineStore` on the table itself. */
export const BASELINE_ACTIONS = [
  'GetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
] as const;
/** Its calls on the indexes: a lookup by record ref, email or phone is a Query, nothing else. */
export const BASELINE_INDEX_ACTIONS = ['Query'] as const;
/**
 * The KMS calls DynamoDB makes on the caller's behalf to read and write items of a table encrypted with a
 * customer managed key (the table key is decrypted on access, data keys are generated on write). Named one
 * by one: `grantEncryptDecrypt` would add `kms:ReEncrypt*` and `kms:GenerateDataKey*`, which no item call needs.
 */
export const BASELINE_KMS_ACTIONS = ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'] as const;

/** Default interval of the sync schedule; set it to the smallest `refresh` of the directory's sources. */
export const DEFAULT_CACHE_SYNC_INTERVAL = Duration.minutes(5);

/** Props of {@link SourceCache}. */
export interface SourceCacheProps {
  /** The platform function: it runs the sync (`bos.cache.sync` events) and reads baselines. */
  readonly handler: LambdaFunctionResource;
  /** The baseline table's keys and indexes (`baselineTable` of `lib/table-schemas.ts`). */
  readonly schema: TableSchema;
  /** What CloudFormation does with the table when it leaves the stack. */
  readonly removalPolicy: RemovalPolicy;
  /**
   * Encrypt the baselines with this customer managed KMS key (its policy must let the function use it).
   * @default - an AWS owned key
   */
  readonly kmsKeyArn?: string;
  /**
   * How often the schedule invokes the sync; each source still syncs only at its own `refresh`.
   * @default Duration.minutes(5)
   */
  readonly syncInterval?: Duration;
  /** Namespace and service of the function's metrics (the staleness alarm reads `CacheBaselineStaleness`). */
  readonly metrics: MetricScope;
  /**
   * SNS topic ARN for the alarm's notifications.
   * @default - no notifications
   */
  readonly alarmTopicArn?: string;
}

/**
 * The source cache's infrastructure (docs/cache.md): the baseline table (point-in-time recovery on, encrypted
 * with an AWS owned key or a customer key, sparse indexes for keyed lookups), the schedule that invokes the
 * sync, the function's read-write grant on exactly this table, an alarm when any source's baseline is older
 * than its `max_staleness`, and dashboard widgets.
 */
export class SourceCache extends Construct {
  readonly table: Table;
  readonly schedule: Rule;
  readonly stalenessAlarm: Alarm;
  readonly widgets: readonly IWidget[];

  constructor(scope: Construct, id: string, props: SourceCacheProps) {
    super(scope, id);
    const { schema } = props;
    const key = props.kmsKeyArn === undefined ? undefined : Key.fromKeyArn(this, 'Key', props.kmsKeyArn);
    this.table = new Table(this, 'Baselines', {
      partitionKey: { name: schema.partitionKey.name, type: AttributeType.STRING },
      ...(schema.sortKey ? { sortKey: { name: schema.sortKey.name, type: AttributeType.STRING } } : {}),
      timeToLiveAttribute: schema.timeToLiveAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Baselines hold people's directory records: an AWS owned key by default, a customer key on request.
      ...(key === undefined
        ? { encryption: TableEncryption.DEFAULT }
        : { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey: key }),
      removalPolicy: props.removalPolicy,
    });
    for (const index of schema.globalSecondaryIndexes ?? [])
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey.name, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    // Exactly the calls the baseline store makes, on this table and on its indexes by name (no Scan, no
    // streams, no index the schema does not declare): cdk-nag finds no wildcard to acknowledge.
    props.handler.addToRolePolicy(
      new PolicyStatement({
        actions: BASELINE_ACTIONS.map((action) => `dynamodb:${action}`),
        resources: [this.table.tableArn],
      }),
    );
    const indexes = (schema.globalSecondaryIndexes ?? []).map(
      (i) => `${this.table.tableArn}/index/${i.name}`,
    );
    if (indexes.length > 0)
      props.handler.addToRolePolicy(
        new PolicyStatement({
          actions: BASELINE_INDEX_ACTIONS.map((action) => `dynamodb:${action}`),
          resources: indexes,
        }),
      );
    // The customer key only through DynamoDB: the function cannot use it to encrypt or decrypt anything else.
    if (key !== undefined)
      props.handler.addToRolePolicy(
        new PolicyStatement({
          actions: [...BASELINE_KMS_ACTIONS],
          resources: [key.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${Aws.REGION}.amazonaws.com` } },
        }),
      );
    props.handler.addEnvironment(schema.envVar, this.table.tableName);

    this.schedule = new Rule(this, 'SyncSchedule', {
      description: 'Invokes the platform function to bring the source cache baselines up to date',
      schedule: Schedule.rate(props.syncInterval ?? DEFAULT_CACHE_SYNC_INTERVAL),
      targets: [
        new LambdaFunction(props.handler, {
          event: RuleTargetInput.fromObject(CACHE_SYNC_EVENT),
          retryAttempts: 0,
        }),
      ],
    });

    const staleness = new Metric({
      namespace: props.metrics.namespace,
      metricName: CACHE_METRICS.baselineStalenessOverall.name,
      dimensionsMap: { service: props.metrics.service },
      statistic: 'Maximum',
      period: Duration.minutes(5),
    });
    this.stalenessAlarm = new Alarm(this, 'BaselineStale', {
      alarmDescription:
        'A cached source’s baseline is older than its max_staleness (or its sync fails): its reads go live.',
      metric: staleness,
      threshold: 100,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No sync ran (no cached source, or the schedule stopped): the function's own alarms cover a stop.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (props.alarmTopicArn) {
      const topic = Topic.fromTopicArn(this, 'Topic', props.alarmTopicArn);
      this.stalenessAlarm.addAlarmAction(new SnsAction(topic));
      this.stalenessAlarm.addOkAction(new SnsAction(topic));
    }

    const perSource = (metric: PlatformMetric, statistic: string) =>
      searchExpression(props.metrics, metric, statistic);
    this.widgets = [
      new GraphWidget({
        title: 'Source cache: baseline staleness (% of max_staleness) and age (ms)',
        left: [perSource(CACHE_METRICS.baselineStaleness, 'Maximum')],
        leftAnnotations: [{ value: 100, label: 'max_staleness' }],
        right: [perSource(CACHE_METRICS.baselineAge, 'Maximum')],
      }),
      new GraphWidget({
        title: 'Source cache: sync duration and failures',
        left: [perSource(CACHE_METRICS.syncDuration, 'Maximum')],
        right: [perSource(CACHE_METRICS.syncFailures, 'Sum')],
      }),
      new GraphWidget({
        title: 'Source cache: records written and removed',
        left: [perSource(CACHE_METRICS.recordsWritten, 'Sum')],
        right: [perSource(CACHE_METRICS.recordsRemoved, 'Sum')],
      }),
    ];
  }
}
