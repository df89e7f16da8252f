/**
 * The source cache's infrastructure when the stack provisions it: the baseline table (keys and sparse
 * indexes of `baselineTable`, point-in-time recovery, an AWS owned key unless a customer key is given), its
 * name in the function's environment, the function's grant on exactly that table, a schedule that sends
 * the ids-only sync event, and the staleness alarm at 100 % of `max_staleness`. Off unless asked for.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Duration } from 'aws-cdk-lib';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { publishSyncMetrics } from '../../lambda/aws/index.js';
import {
  baselineTable,
  CACHE_METRICS,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  stackPropsFromContext,
} from '../../lib/index.js';
import { emfBlobs, emfMetrics } from '../helpers/emf.js';
import { onlyResource, render, resourcesOf, synthStack, TEST_AUTH } from './stack-fixture.js';
import type { Template } from 'aws-cdk-lib/assertions';

interface Statement {
  Action: unknown;
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** Every statement of every IAM policy of the template. */
const statementsOf = (t: Template): Statement[] =>
  resourcesOf(t, 'AWS::IAM::Policy').flatMap(
    ([, p]) => (p.Properties?.PolicyDocument as { Statement: Statement[] }).Statement,
  );

const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/11111111-2222-3333-4444-555555555555';
const { template } = synthStack({ stage: 'dev', sourceCache: { syncInterval: Duration.minutes(10) } });
const [tableId, table] = onlyResource(template, 'AWS::DynamoDB::Table', (r) =>
  JSON.stringify(r.Properties?.GlobalSecondaryIndexes ?? null).includes('byRef'),
);

describe('the source cache stack', () => {
  it('creates the baseline table with its keys, sparse indexes and point-in-time recovery, encrypted with an AWS owned key', () => {
    const props = table.Properties ?? {};
    assert.deepEqual(props['KeySchema'], [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    const indexes = props['GlobalSecondaryIndexes'] as Array<Record<string, unknown>>;
    assert.deepEqual(
      indexes.map((i) => [i['IndexName'], i['KeySchema'], i['Projection']]),
      (baselineTable.globalSecondaryIndexes ?? []).map((i) => [
        i.name,
        [{ AttributeName: i.partitionKey.name, KeyType: 'HASH' }],
        { ProjectionType: 'ALL' },
      ]),
    );
    assert.deepEqual(props['PointInTimeRecoverySpecification'], { PointInTimeRecoveryEnabled: true });
    // SSE "disabled" is DynamoDB's way of saying "encrypted with an AWS owned key" (always encrypted at rest).
    assert.deepEqual(props['SSESpecification'], { SSEEnabled: false });
    assert.equal(props['BillingMode'], 'PAY_PER_REQUEST');
  });

  it('names the table in BOS_BASELINE_TABLE and grants the function the store’s calls on it and its indexes only', () => {
    const [, fn] = onlyResource(template, 'AWS::Lambda::Function', (r) =>
      String(r.Properties?.Handler).startsWith('index.'),
    );
    const env = (fn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;
    assert.deepEqual(env['BOS_BASELINE_TABLE'], { Ref: tableId });
    const grants = statementsOf(template).filter((s) => JSON.stringify(s.Resource).includes(tableId));
    assert.deepEqual(
      grants.map((s) => [s.Action, render(s.Resource)]),
      [
        [
          [
            'dynamodb:GetItem',
            'dynamodb:Query',
            'dynamodb:PutItem',
            'dynamodb:UpdateItem',
            'dynamodb:DeleteItem',
            'dynamodb:BatchWriteItem',
          ],
          `<${tableId}.Arn>`,
        ],
        [
          'dynamodb:Query',
          (baselineTable.globalSecondaryIndexes ?? [])
            .map((i) => `<${tableId}.Arn>/index/${i.name}`)
            .join(','),
        ],
      ],
    );
  });

  it('grants no KMS call without a customer key', () => {
    assert.deepEqual(
      statementsOf(template).filter((s) => JSON.stringify(s.Action).includes('kms:')),
      [],
    );
  });

  it('invokes the function on the schedule with the ids-only sync event', () => {
    const [, rule] = onlyResource(template, 'AWS::Events::Rule');
    assert.equal(rule.Properties?.['ScheduleExpression'], 'rate(10 minutes)');
    const [target] = rule.Properties?.['Targets'] as Array<Record<string, unknown>>;
    assert.deepEqual(JSON.parse(String(target?.['Input'])), { kind: 'bos.cache.sync' });
    // The rule needs no role: EventBridge invokes through the function's resource policy, for this rule only.
    assert.equal(target?.['RoleArn'], undefined);
    const [ruleId] = onlyResource(template, 'AWS::Events::Rule');
    const permissions = resourcesOf(template, 'AWS::Lambda::Permission')
      .map(([, p]) => p.Properties ?? {})
      .filter((p) => p['Principal'] === 'events.amazonaws.com');
    assert.deepEqual(
      permissions.map((p) => [p['Action'], render(p['SourceArn'])]),
      [['lambda:InvokeFunction', `<${ruleId}.Arn>`]],
    );
  });

  it('alarms when any source’s baseline reaches 100 % of its max_staleness', () => {
    const [, alarm] = onlyResource(
      template,
      'AWS::CloudWatch::Alarm',
      (r) => r.Properties?.['MetricName'] === 'CacheBaselineStaleness',
    );
    assert.equal(alarm.Properties?.['Threshold'], 100);
    assert.equal(alarm.Properties?.['Statistic'], 'Maximum');
    assert.equal(alarm.Properties?.['ComparisonOperator'], 'GreaterThanOrEqualToThreshold');
  });

  it('graphs and alarms on exactly the metrics a sync publishes, under the dimensions it publishes them with', () => {
    // Prepare: what the function prints for one source's sync (its EMF lines), through Powertools itself
    const lines: string[] = [];
    const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        callback();
      },
    });
    (metrics as unknown as { console: Console }).console = new Console({ stdout: sink, stderr: sink });
    // Act
    publishSyncMetrics(metrics, {
      ...{ sourceId: 'acme-scim', sourceType: 'scim', result: 'delta', written: 3, removed: 1 },
      ...{ durationMs: 40, baselineAgeMs: 60_000, maxStalenessMs: 3_600_000 },
    });
    // Assess: published = the table; the table's per-source metrics are graphed, its overall one alarmed on
    const key = (name: string, dimensions: readonly string[]) =>
      `${name}{${[...dimensions].sort().join(',')}}`;
    const published = emfBlobs(lines)
      .flatMap((blob) => emfMetrics(blob))
      .map((m) => (assert.equal(m.namespace, METRICS_NAMESPACE), key(m.name, Object.keys(m.dimensions))));
    const table = Object.values(CACHE_METRICS).map((m) => key(m.name, [...m.dimensions, 'service']));
    assert.deepEqual([...published].sort(), [...table].sort());
    const [, dashboard] = onlyResource(template, 'AWS::CloudWatch::Dashboard');
    const graphed = [
      ...render(dashboard.Properties?.['DashboardBody']).matchAll(
        /\{BosMcp,([^}]*)\} MetricName=\\?"(\w+)\\?"/g,
      ),
    ]
      .filter(([, , name]) => name!.startsWith('Cache'))
      .map(([, dims, name]) => key(name!, dims!.replace(/\\?"/g, '').split(',')));
    const perSource = Object.values(CACHE_METRICS).filter((m) => m.dimensions.length > 0);
    assert.deepEqual(graphed.sort(), perSource.map((m) => key(m.name, [...m.dimensions, 'service'])).sort());
    const [, alarm] = onlyResource(template, 'AWS::CloudWatch::Alarm', (r) =>
      String(r.Properties?.['MetricName']).startsWith('Cache'),
    );
    const alarmDimensions =
      (alarm.Properties?.['Dimensions'] as Array<{ Name: string; Value: string }>) ?? [];
    assert.equal(alarm.Properties?.['Namespace'], METRICS_NAMESPACE);
    assert.deepEqual(alarmDimensions, [{ Name: 'service', Value: METRICS_SERVICE }]);
    assert.ok(published.includes(key(String(alarm.Properties?.['MetricName']), ['service'])));
  });

  it('encrypts with a customer key when one is given, which the function may use only through DynamoDB', () => {
    const { template: keyed } = synthStack({ stage: 'dev', sourceCache: { kmsKeyArn: KEY_ARN } });
    const [, baseline] = onlyResource(keyed, 'AWS::DynamoDB::Table', (r) =>
      JSON.stringify(r.Properties?.GlobalSecondaryIndexes ?? null).includes('byRef'),
    );
    assert.deepEqual(baseline.Properties?.['SSESpecification'], {
      KMSMasterKeyId: KEY_ARN,
      SSEEnabled: true,
      SSEType: 'KMS',
    });
    const kms = statementsOf(keyed).filter((s) => JSON.stringify(s.Action).includes('kms:'));
    assert.deepEqual(
      kms.map((s) => [s.Action, s.Resource, render(s.Condition?.['StringEquals']?.['kms:ViaService'])]),
      [
        [
          ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'],
          KEY_ARN,
          'dynamodb.<Ref:AWS::Region>.amazonaws.com',
        ],
      ],
    );
  });

  it('is absent unless asked for, and reads its context keys', () => {
    const { template: plain } = synthStack({ stage: 'dev' });
    assert.equal(resourcesOf(plain, 'AWS::Events::Rule').length, 0);
    const context: Record<string, unknown> = {
      authIssuer: TEST_AUTH.issuer,
      authJwksUrl: TEST_AUTH.jwksUrl,
      sourceCache: 'true',
      cacheSyncMinutes: '15',
      baselineKmsKeyArn: KEY_ARN,
    };
    const props = stackPropsFromContext((key) => context[key]);
    assert.equal(props.sourceCache?.syncInterval?.toMinutes(), 15);
    assert.equal(props.sourceCache?.kmsKeyArn, KEY_ARN);
    assert.throws(() => stackPropsFromContext((key) => ({ ...context, sourceCache: undefined })[key]), {
      message: /need "sourceCache=true"/,
    });
  });
});
