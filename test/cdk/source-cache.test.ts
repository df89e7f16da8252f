/**
 * The source cache's infrastructure when the stack provisions it: the baseline table (keys and sparse
 * indexes of `baselineTable`, point-in-time recovery, an AWS owned key unless a customer key is given), its
 * name in the function's environment, the function's grant on exactly that table, a schedule that sends
 * the ids-only sync event, and the staleness alarm at 100 % of `max_staleness`. Off unless asked for.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Duration } from 'aws-cdk-lib';
import { baselineTable, stackPropsFromContext } from '../../lib/index.js';
import { onlyResource, resourcesOf, synthStack } from './stack-fixture.js';
import { TEST_AUTH } from './stack-fixture.js';

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

  it('names the table in BOS_BASELINE_TABLE and grants the function the store’s four calls on it and its indexes only', () => {
    const [, fn] = onlyResource(template, 'AWS::Lambda::Function', (r) =>
      String(r.Properties?.Handler).startsWith('index.'),
    );
    const env = (fn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;
    assert.deepEqual(env['BOS_BASELINE_TABLE'], { Ref: tableId });
    const grants = resourcesOf(template, 'AWS::IAM::Policy')
      .flatMap(
        ([, p]) =>
          (p.Properties?.PolicyDocument as { Statement: Array<{ Resource: unknown; Action: unknown }> })
            .Statement,
      )
      .filter((s) => JSON.stringify(s.Resource).includes(tableId));
    assert.equal(grants.length, 1);
    assert.deepEqual(grants[0]?.Action, [
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'dynamodb:BatchWriteItem',
    ]);
    assert.match(JSON.stringify(grants[0]?.Resource), /\/index\/\*/);
  });

  it('invokes the function on the schedule with the ids-only sync event', () => {
    const [, rule] = onlyResource(template, 'AWS::Events::Rule');
    assert.equal(rule.Properties?.['ScheduleExpression'], 'rate(10 minutes)');
    const [target] = rule.Properties?.['Targets'] as Array<Record<string, unknown>>;
    assert.deepEqual(JSON.parse(String(target?.['Input'])), { kind: 'bos.cache.sync' });
    assert.equal(
      resourcesOf(template, 'AWS::Lambda::Permission').filter(
        ([, p]) => p.Properties?.['Principal'] === 'events.amazonaws.com',
      ).length,
      1,
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

  it('encrypts with a customer key when one is given', () => {
    const { template: keyed } = synthStack({ stage: 'dev', sourceCache: { kmsKeyArn: KEY_ARN } });
    const [, baseline] = onlyResource(keyed, 'AWS::DynamoDB::Table', (r) =>
      JSON.stringify(r.Properties?.GlobalSecondaryIndexes ?? null).includes('byRef'),
    );
    assert.deepEqual(baseline.Properties?.['SSESpecification'], {
      KMSMasterKeyId: KEY_ARN,
      SSEEnabled: true,
      SSEType: 'KMS',
    });
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
