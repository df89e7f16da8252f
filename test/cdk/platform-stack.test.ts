/**
 * Template tests of the data and operations side: tables (keys, TTL, PITR, billing, encryption, removal
 * policy by stage), least-privilege IAM, the function's runtime and environment, alarms and outputs.
 * One app with a `dev` and a `prod` stack, synthesized once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_SOURCE_SECRET_PREFIX } from '../../lambda/aws/index.js';
import { SOURCE_SECRET_PREFIX } from '../../lib/environment.js';
import { tableSchemas } from '../../lib/table-schemas.js';
import { addStack, onlyResource, render, resourceById, resourcesOf, TEST_AUTH } from './stack-fixture.js';
import type { CfnResourceJson } from './stack-fixture.js';

// Both stacks exist before the first synth: CDK forbids changing the tree after it.
const app = new App();
const devStack = addStack(app, { stage: 'dev' });
const prodStack = addStack(app, {
  stage: 'prod',
  customDomain: {
    domainName: 'mcp.example.com',
    certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/x',
  },
  alarmTopicArn: 'arn:aws:sns:eu-west-1:111122223333:ops',
});
const dev = Template.fromStack(devStack);
const prod = Template.fromStack(prodStack);

const tablesOf = (template: Template): Array<[string, CfnResourceJson]> =>
  resourcesOf(template, 'AWS::DynamoDB::Table');

/** The table whose key schema is exactly these attribute names, in order. */
function tableWithKeys(template: Template, keys: string[]): [string, CfnResourceJson] {
  const keyNames = (table: CfnResourceJson): string[] =>
    (table.Properties?.KeySchema as Array<{ AttributeName: string }>).map((key) => key.AttributeName);
  return onlyResource(
    template,
    'AWS::DynamoDB::Table',
    (table) => keyNames(table).join('+') === keys.join('+'),
  );
}

const [, fn] = onlyResource(dev, 'AWS::Lambda::Function');
const env = (fn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

describe('platform tables', () => {
  it('creates the five tables of lib/table-schemas.ts with their key schemas', () => {
    assert.equal(tablesOf(dev).length, 5);
    for (const schema of tableSchemas) {
      const keys = [schema.partitionKey.name, ...(schema.sortKey ? [schema.sortKey.name] : [])];
      const [, table] = tableWithKeys(dev, keys);
      assert.deepEqual(
        table.Properties?.KeySchema,
        [
          { AttributeName: schema.partitionKey.name, KeyType: 'HASH' },
          ...(schema.sortKey ? [{ AttributeName: schema.sortKey.name, KeyType: 'RANGE' }] : []),
        ],
        schema.id,
      );
    }
  });

  it('keys sessions by sessionId, streams by sessionId+eventId, tasks by sessionId+taskId, directory by pk+sk, rate counters by counterId', () => {
    for (const keys of [
      ['sessionId'],
      ['sessionId', 'eventId'],
      ['sessionId', 'taskId'],
      ['pk', 'sk'],
      ['counterId'],
    ]) {
      assert.ok(tableWithKeys(dev, keys));
    }
  });

  it('bills on demand, keeps point-in-time recovery, expires items on expiresAt and encrypts with the AWS managed key', () => {
    for (const [id, table] of tablesOf(dev)) {
      assert.equal(table.Properties?.BillingMode, 'PAY_PER_REQUEST', id);
      assert.deepEqual(
        table.Properties?.PointInTimeRecoverySpecification,
        { PointInTimeRecoveryEnabled: true },
        id,
      );
      assert.deepEqual(
        table.Properties?.TimeToLiveSpecification,
        { AttributeName: 'expiresAt', Enabled: true },
        id,
      );
      // SSEEnabled with no key = the AWS managed key aws/dynamodb (absent would be the AWS owned key).
      assert.deepEqual(table.Properties?.SSESpecification, { SSEEnabled: true }, id);
    }
  });

  it('destroys tables and logs with a dev stack', () => {
    for (const [id, resource] of [...tablesOf(dev), ...resourcesOf(dev, 'AWS::Logs::LogGroup')]) {
      assert.equal(resource.DeletionPolicy, 'Delete', id);
      assert.equal(resource.UpdateReplacePolicy, 'Delete', id);
    }
    for (const [id, table] of tablesOf(dev))
      assert.equal(table.Properties?.DeletionProtectionEnabled, false, id);
  });

  it('retains tables and logs, with deletion protection, outside dev', () => {
    for (const [id, resource] of [...tablesOf(prod), ...resourcesOf(prod, 'AWS::Logs::LogGroup')]) {
      assert.equal(resource.DeletionPolicy, 'Retain', id);
      assert.equal(resource.UpdateReplacePolicy, 'Retain', id);
    }
    for (const [id, table] of tablesOf(prod))
      assert.equal(table.Properties?.DeletionProtectionEnabled, true, id);
  });
});

describe('platform IAM', () => {
  const statements = resourcesOf(dev, 'AWS::IAM::Policy').flatMap(
    ([, policy]) =>
      (
        policy.Properties?.PolicyDocument as {
          Statement: Array<{ Action: string | string[]; Resource: unknown }>;
        }
      ).Statement,
  );
  const actionsOf = (statement: { Action: string | string[] }): string[] =>
    Array.isArray(statement.Action) ? statement.Action : [statement.Action];
  const resourcesIn = (statement: { Resource: unknown }): string[] =>
    (Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource]).map(render);
  const tableArn = (keys: string[]): string => `<${tableWithKeys(dev, keys)[0]}.Arn>`;

  it('limits every DynamoDB statement to named table ARNs, never "*" or an index wildcard', () => {
    const dynamo = statements.filter((statement) =>
      actionsOf(statement).some((a) => a.startsWith('dynamodb:')),
    );
    const named = tablesOf(dev)
      .map(([id]) => `<${id}.Arn>`)
      .sort();
    const used = [...new Set(dynamo.flatMap(resourcesIn))].sort();
    assert.deepEqual(used, named);
    for (const action of dynamo.flatMap(actionsOf)) assert.doesNotMatch(action, /\*/);
  });

  it('lets the function write sessions, streams and tasks but only read the directory', () => {
    const actionsOn = (arn: string): string[] =>
      statements.filter((statement) => resourcesIn(statement).includes(arn)).flatMap(actionsOf);
    for (const keys of [['sessionId'], ['sessionId', 'eventId'], ['sessionId', 'taskId']]) {
      const actions = actionsOn(tableArn(keys));
      for (const action of [
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
      ]) {
        assert.ok(actions.includes(action), `${keys.join('+')} lacks ${action}`);
      }
    }
    const directory = actionsOn(tableArn(['pk', 'sk']));
    assert.ok(directory.includes('dynamodb:GetItem') && directory.includes('dynamodb:Query'));
    const writes = directory.filter((action) => /Put|Update|Delete|BatchWrite/.test(action));
    assert.deepEqual(writes, []);
  });

  it('lets the function only count on the rate-limit table: UpdateItem, nothing read or deleted', () => {
    const actions = statements
      .filter((statement) => resourcesIn(statement).includes(tableArn(['counterId'])))
      .flatMap(actionsOf);
    assert.deepEqual(actions, ['dynamodb:UpdateItem']);
  });

  it('lets the function read only the source-credential secrets the resolver names and its request-state secret, nothing else of Secrets Manager', () => {
    assert.equal(SOURCE_SECRET_PREFIX, DEFAULT_SOURCE_SECRET_PREFIX);
    const secrets = statements.filter((statement) =>
      actionsOf(statement).some((a) => a.startsWith('secretsmanager:')),
    );
    assert.equal(secrets.length, 2);
    const [sources, requestState] = secrets.sort((a, b) => actionsOf(a).length - actionsOf(b).length);
    assert.deepEqual(actionsOf(sources!), ['secretsmanager:GetSecretValue']);
    assert.match(resourcesIn(sources!)[0] ?? '', /:secretsmanager:.*:secret:bos\/sources\/\*$/);
    const [secretId] = onlyResource(dev, 'AWS::SecretsManager::Secret');
    assert.deepEqual(actionsOf(requestState!).sort(), [
      'secretsmanager:DescribeSecret',
      'secretsmanager:GetSecretValue',
    ]);
    assert.deepEqual(resourcesIn(requestState!), [`<Ref:${secretId}>`]);
  });

  it('gives the function role no managed policy and no statement on "*" (X-Ray is off by default)', () => {
    const [, role] = onlyResource(dev, 'AWS::IAM::Role', (r) =>
      render(r.Properties?.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
    );
    assert.equal(role.Properties?.ManagedPolicyArns, undefined);
    for (const statement of statements)
      assert.ok(!resourcesIn(statement).includes('*'), JSON.stringify(statement));
  });
});

describe('platform function', () => {
  it('runs Node.js 22 on arm64 with the bundled ESM handler and a 900 s timeout', () => {
    assert.equal(fn.Properties?.Runtime, 'nodejs22.x');
    assert.deepEqual(fn.Properties?.Architectures, ['arm64']);
    assert.equal(fn.Properties?.Handler, 'index.handler');
    assert.equal(fn.Properties?.Timeout, 900);
    assert.equal(fn.Properties?.MemorySize, 1024);
  });

  it('gets exactly the DESIGN §6 environment (no NODE_OPTIONS: source maps are not decoded by default)', () => {
    assert.deepEqual(Object.keys(env).sort(), [
      'AUTH_AUDIENCE',
      'AUTH_ISSUER',
      'AUTH_JWKS_URL',
      'AUTH_TENANT_CLAIM',
      'BOS_DEADLINE_RESERVE_MS',
      'BOS_DIRECTORY_TABLE',
      'MCP_ALLOWED_ORIGINS',
      'MCP_ENDPOINT',
      'MCP_RATE_LIMIT_PRINCIPAL',
      'MCP_RATE_LIMIT_TABLE',
      'MCP_RATE_LIMIT_TENANT',
      'MCP_RATE_LIMIT_WINDOW_SECONDS',
      'MCP_REQUEST_STATE_SECRET_ARN',
      'MCP_SESSION_TABLE',
      'MCP_SESSION_TTL_MINUTES',
      'MCP_STREAM_TABLE',
      'MCP_STREAM_TTL_MINUTES',
      'MCP_TASK_TABLE',
      'MCP_TASK_TTL_MINUTES',
    ]);
    // The configured origins, then the API's own (where the console runs).
    assert.match(
      render(env.MCP_ALLOWED_ORIGINS),
      /^https:\/\/claude\.ai,https:\/\/claude\.com,https:\/\/<Ref:\w+>\.execute-api\.<Ref:AWS::Region>\.<Ref:AWS::URLSuffix>$/,
    );
    assert.equal(env.MCP_SESSION_TTL_MINUTES, '60');
    assert.equal(env.MCP_STREAM_TTL_MINUTES, '60');
    assert.equal(env.MCP_TASK_TTL_MINUTES, '10');
    assert.equal(env.BOS_DEADLINE_RESERVE_MS, '1000');
    assert.equal(env.AUTH_ISSUER, TEST_AUTH.issuer);
    assert.equal(env.AUTH_JWKS_URL, TEST_AUTH.jwksUrl);
    assert.equal(env.AUTH_TENANT_CLAIM, 'org_id');
    // DEFAULT_RATE_LIMITS: the stack fixture names no limits.
    assert.equal(env.MCP_RATE_LIMIT_PRINCIPAL, '300');
    assert.equal(env.MCP_RATE_LIMIT_TENANT, '1500');
    assert.equal(env.MCP_RATE_LIMIT_WINDOW_SECONDS, '60');
  });

  it('passes each table name in the variable lib/table-schemas.ts names for it', () => {
    for (const schema of tableSchemas) {
      const keys = [schema.partitionKey.name, ...(schema.sortKey ? [schema.sortKey.name] : [])];
      assert.deepEqual(env[schema.envVar], { Ref: tableWithKeys(dev, keys)[0] }, schema.envVar);
    }
  });

  it('builds MCP_ENDPOINT from the API id and stage, and uses it as the token audience by default', () => {
    const endpoint = render(env.MCP_ENDPOINT);
    assert.match(
      endpoint,
      /^https:\/\/<Ref:\w+>\.execute-api\.<Ref:AWS::Region>\.<Ref:AWS::URLSuffix>\/dev\/mcp\/apps\/bos\/platform$/,
    );
    assert.equal(render(env.AUTH_AUDIENCE), endpoint);
  });

  it('uses the custom domain, without base path, for the endpoint when one is configured', () => {
    const [, prodFn] = onlyResource(prod, 'AWS::Lambda::Function');
    const prodEnv = (prodFn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;
    assert.equal(prodEnv.MCP_ENDPOINT, 'https://mcp.example.com/mcp/apps/bos/platform');
    assert.match(String(prodEnv.MCP_ALLOWED_ORIGINS), /,https:\/\/mcp\.example\.com$/);
    const [, mapping] = onlyResource(prod, 'AWS::ApiGateway::BasePathMapping');
    assert.equal(mapping.Properties?.BasePath, undefined);
    const [, domain] = onlyResource(prod, 'AWS::ApiGateway::DomainName');
    assert.deepEqual(domain.Properties?.EndpointConfiguration, { Types: ['REGIONAL'] });
    assert.equal(domain.Properties?.SecurityPolicy, 'TLS_1_2');
  });

  it('writes to its own log group with a retention', () => {
    const group = render((fn.Properties?.LoggingConfig as { LogGroup: unknown }).LogGroup);
    const id = group.replace(/^<Ref:(\w+)>$/, '$1');
    const logGroup = resourceById(dev, 'AWS::Logs::LogGroup', id);
    assert.ok(logGroup, `the function logs to ${id}, which is not a log group`);
    assert.equal(logGroup.Properties?.RetentionInDays, 7);
  });
});

describe('platform alarms and outputs', () => {
  const alarms = resourcesOf(dev, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties ?? {});
  const alarmOn = (namespace: string, metric: string): Record<string, unknown> => {
    const found = alarms.find((alarm) => alarm.Namespace === namespace && alarm.MetricName === metric);
    assert.ok(found, `no alarm on ${namespace} ${metric}`);
    return found;
  };

  it('alarms on API 5xx, function errors and function throttles from the first one', () => {
    for (const [namespace, metric] of [
      ['AWS/ApiGateway', '5XXError'],
      ['AWS/Lambda', 'Errors'],
      ['AWS/Lambda', 'Throttles'],
    ] as const) {
      const alarm = alarmOn(namespace, metric);
      assert.equal(alarm.Threshold, 1, metric);
      assert.equal(alarm.ComparisonOperator, 'GreaterThanOrEqualToThreshold', metric);
      assert.equal(alarm.Statistic, 'Sum', metric);
      assert.equal(alarm.TreatMissingData, 'notBreaching', metric);
    }
  });

  it('alarms when p99 duration reaches 80 % of the 900 s timeout', () => {
    const alarm = alarmOn('AWS/Lambda', 'Duration');
    assert.equal(alarm.ExtendedStatistic, 'p99');
    assert.equal(alarm.Threshold, 720_000);
  });

  it('notifies the alarm topic on alarm and on recovery when one is configured', () => {
    const prodAlarms = resourcesOf(prod, 'AWS::CloudWatch::Alarm');
    assert.equal(prodAlarms.length, 5);
    for (const [id, alarm] of prodAlarms) {
      assert.deepEqual(alarm.Properties?.AlarmActions, ['arn:aws:sns:eu-west-1:111122223333:ops'], id);
      assert.deepEqual(alarm.Properties?.OKActions, ['arn:aws:sns:eu-west-1:111122223333:ops'], id);
    }
  });

  it('outputs the endpoint URL and the protected-resource metadata URL', () => {
    const outputs = dev.toJSON().Outputs as Record<string, { Value: unknown }>;
    assert.equal(render(outputs.EndpointUrl?.Value), render(env.MCP_ENDPOINT));
    assert.equal(
      render(outputs.ProtectedResourceMetadataUrl?.Value),
      render(env.MCP_ENDPOINT).replace('/dev/mcp/', '/dev/.well-known/oauth-protected-resource/mcp/'),
    );
    const prodOutputs = prod.toJSON().Outputs as Record<string, { Value: unknown }>;
    assert.equal(
      prodOutputs.ProtectedResourceMetadataUrl?.Value,
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp/apps/bos/platform',
    );
  });
});
