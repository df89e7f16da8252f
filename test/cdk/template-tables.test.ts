/**
 * `local/template-tables.ts` against a real synthesized template: the local stack can build its tables and
 * the function environment from `cdk.out` and get exactly what `lib/table-schemas.ts` deploys.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { App } from 'aws-cdk-lib';
import { tableSchemas } from '../../lib/table-schemas.js';
import {
  platformFunction,
  readTemplateTables,
  readTemplateTablesFile,
  TemplateReadError,
  templatePath,
} from '../../local/template-tables.js';
import { addStack } from './stack-fixture.js';

const outdir = mkdtempSync(join(tmpdir(), 'bos-template-tables-'));
after(() => rmSync(outdir, { recursive: true, force: true }));
const app = new App({ outdir });
addStack(app, { stage: 'dev' });
app.synth();

describe('template tables reader on a synthesized stack', () => {
  it('finds cdk.out/BosMcp-dev.template.json and returns one table per schema, keys and TTL as deployed', async () => {
    const { tables } = await readTemplateTablesFile(templatePath('dev', outdir));
    assert.equal(tables.length, tableSchemas.length);
    for (const schema of tableSchemas) {
      const table = tables.find((candidate) => candidate.environmentVariables.includes(schema.envVar));
      assert.ok(table, `no table is passed in ${schema.envVar}`);
      const keys = [schema.partitionKey, ...(schema.sortKey ? [schema.sortKey] : [])];
      assert.deepEqual(
        table.keySchema,
        keys.map((key, index) => ({ AttributeName: key.name, KeyType: index === 0 ? 'HASH' : 'RANGE' })),
      );
      assert.deepEqual(
        [...table.attributeDefinitions].sort((a, b) => a.AttributeName.localeCompare(b.AttributeName)),
        keys
          .map((key) => ({ AttributeName: key.name, AttributeType: key.type }))
          .sort((a, b) => a.AttributeName.localeCompare(b.AttributeName)),
      );
      assert.equal(table.timeToLiveAttribute, schema.timeToLiveAttribute);
      assert.equal(table.billingMode, 'PAY_PER_REQUEST');
      assert.deepEqual(table.environmentVariables, [schema.envVar]);
    }
  });

  it('returns the platform function with its DESIGN §6 variable names and literal values', async () => {
    const fn = platformFunction(await readTemplateTablesFile(templatePath('dev', outdir)));
    assert.ok(fn);
    assert.equal(fn.handler, 'index.handler');
    assert.equal(fn.runtime, 'nodejs22.x');
    assert.equal(fn.timeoutSeconds, 900);
    for (const name of [
      'MCP_ENDPOINT',
      'MCP_ALLOWED_ORIGINS',
      'BOS_DEADLINE_RESERVE_MS',
      'AUTH_ISSUER',
      'AUTH_AUDIENCE',
    ]) {
      assert.ok(fn.environmentVariableNames.includes(name), name);
    }
    assert.deepEqual(fn.environment.MCP_SESSION_TTL_MINUTES, { kind: 'literal', value: '60' });
    assert.deepEqual(fn.environment.MCP_TASK_TTL_MINUTES, { kind: 'literal', value: '10' });
    assert.equal(fn.environment.MCP_SESSION_TABLE?.kind, 'table');
    assert.deepEqual(fn.environment.MCP_ENDPOINT, { kind: 'unresolved' });
  });
});

describe('template tables reader on bad input', () => {
  it('reports a missing template with code template_missing and the synth hint', async () => {
    await assert.rejects(readTemplateTablesFile(join(outdir, 'absent.template.json')), (error: unknown) => {
      assert.ok(error instanceof TemplateReadError);
      assert.equal(error.code, 'template_missing');
      assert.match(error.message, /npm run synth/);
      return true;
    });
  });

  it('reports a file that is not JSON with code template_invalid', async () => {
    const path = join(outdir, 'broken.template.json');
    writeFileSync(path, '{ not json');
    await assert.rejects(readTemplateTablesFile(path), {
      name: 'TemplateReadError',
      code: 'template_invalid',
    });
  });

  it('rejects a table whose key schema is not CloudFormation-shaped', () => {
    const template = {
      Resources: {
        T: {
          Type: 'AWS::DynamoDB::Table',
          Properties: { KeySchema: [{ AttributeName: 'a', KeyType: 'SIDEWAYS' }] },
        },
      },
    };
    assert.throws(() => readTemplateTables(template), {
      name: 'TemplateReadError',
      code: 'template_invalid',
    });
  });

  it('leaves out TTL when it is disabled and reads a missing billing mode as PROVISIONED', () => {
    const { tables } = readTemplateTables({
      Resources: {
        T: {
          Type: 'AWS::DynamoDB::Table',
          Properties: {
            KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
            AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
            TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: false },
          },
        },
      },
    });
    assert.equal(tables[0]?.timeToLiveAttribute, undefined);
    assert.equal(tables[0]?.billingMode, 'PROVISIONED');
    assert.deepEqual(tables[0]?.environmentVariables, []);
  });
});
