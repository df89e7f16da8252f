/**
 * The local stack builds DynamoDB Local's tables and the function environment from the synthesized CDK
 * template (issue "CDK infrastructure": local equals deployed), not from a second copy of the schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../../lambda/aws/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import { loadLocalTemplate } from '../../local/local-template.js';
import { localTableName, startLocalTables } from '../../local/stack-tables.js';
import type { LocalTables } from '../../local/stack-tables.js';
import { platformFunction, readTemplateTables } from '../../local/template-tables.js';
import type { TemplateTables } from '../../local/template-tables.js';
import { needsJava } from '../helpers/java.js';

describe('local tables and environment from the synthesized template', { timeout: 300_000 }, () => {
  const skipReason = needsJava() || undefined;
  let local: LocalTables | undefined;
  let template: TemplateTables;

  before(async () => {
    if (skipReason !== undefined) return;
    local = await startLocalTables();
    template = readTemplateTables(await loadLocalTemplate());
  });

  after(async () => {
    await local?.stop();
  });

  it('creates every template table with its keys, attribute types, billing mode and TTL attribute', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    assert.equal(template.tables.length, 5);
    const client = createDynamoDbClient({ endpoint: local!.endpoint, requestTimeoutMs: 10_000 });
    try {
      for (const table of template.tables) {
        const TableName = localTableName(table);
        const { Table } = await client.send(new DescribeTableCommand({ TableName }));
        assert.deepEqual(Table?.KeySchema, table.keySchema, TableName);
        assert.deepEqual(
          [...(Table?.AttributeDefinitions ?? [])].sort((a, b) =>
            String(a.AttributeName).localeCompare(String(b.AttributeName)),
          ),
          [...table.attributeDefinitions].sort((a, b) => a.AttributeName.localeCompare(b.AttributeName)),
          TableName,
        );
        assert.equal(Table?.BillingModeSummary?.BillingMode ?? 'PROVISIONED', table.billingMode, TableName);
        const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName }));
        assert.equal(ttl.TimeToLiveDescription?.AttributeName, table.timeToLiveAttribute, TableName);
      }
    } finally {
      client.destroy();
    }
  });

  it('creates the source cache’s baseline table with its indexes and names it in BOS_BASELINE_TABLE', async (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const TableName = local!.environment[baselineTable.envVar];
    assert.equal(TableName, `bos-mcp-local-${baselineTable.id}`);
    const client = createDynamoDbClient({ endpoint: local!.endpoint, requestTimeoutMs: 10_000 });
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      assert.deepEqual(
        (Table?.KeySchema ?? []).map((key) => [key.AttributeName, key.KeyType]),
        [
          ['pk', 'HASH'],
          ['sk', 'RANGE'],
        ],
      );
      assert.deepEqual(
        (Table?.GlobalSecondaryIndexes ?? [])
          .map((index) => [
            index.IndexName,
            index.KeySchema?.[0]?.AttributeName,
            index.Projection?.ProjectionType,
          ])
          .sort(),
        (baselineTable.globalSecondaryIndexes ?? [])
          .map((index) => [index.name, index.partitionKey.name, 'ALL'])
          .sort(),
      );
    } finally {
      client.destroy();
    }
  });

  it('passes the deployed function’s environment, with table references made local and the rate limits off', (t) => {
    if (skipReason !== undefined) return t.skip(skipReason);
    const fn = platformFunction(template);
    assert.ok(fn, 'the template has a platform function');
    const limits = ['MCP_RATE_LIMIT_PRINCIPAL', 'MCP_RATE_LIMIT_TENANT', 'MCP_RATE_LIMIT_WINDOW_SECONDS'];
    for (const name of limits) assert.equal(local!.environment[name], undefined, name);
    for (const [name, value] of Object.entries(fn.environment)) {
      if (
        [
          'MCP_ENDPOINT',
          'MCP_ALLOWED_ORIGINS',
          'AUTH_ISSUER',
          'AUTH_AUDIENCE',
          'AUTH_JWKS_URL',
          ...limits,
        ].includes(name)
      )
        continue;
      if (value.kind === 'literal') assert.equal(local!.environment[name], value.value, name);
      if (value.kind === 'table') {
        const table = template.tables.find((candidate) => candidate.logicalId === value.logicalId);
        assert.ok(table, `${name} refers to a template table`);
        assert.equal(local!.environment[name], localTableName(table), name);
      }
    }
    for (const name of [
      'MCP_SESSION_TABLE',
      'MCP_STREAM_TABLE',
      'MCP_TASK_TABLE',
      'BOS_DIRECTORY_TABLE',
      'MCP_RATE_LIMIT_TABLE',
    ])
      assert.match(local!.environment[name] ?? '', /^bos-mcp-local-/, name);
    assert.equal(local!.environment.AWS_ENDPOINT_URL_DYNAMODB, local!.endpoint);
  });
});
