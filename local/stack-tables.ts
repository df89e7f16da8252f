/**
 * DynamoDB for the local stack: DynamoDB Local (`local/dynamodb-local.ts`) with the platform's tables, and the
 * function environment that names them (DESIGN §6). Both come from the synthesized CDK template
 * (`local/local-template.ts`), so a schema or environment change in `lib/` is automatically the local one:
 * local equals deployed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../lambda/aws/index.js';
import { baselineTable, tableSchemas } from '../lib/table-schemas.js';
import { createTables, startDynamoDbLocal } from './dynamodb-local.js';
import type { DynamoDbLocal, DynamoDbLocalEvent } from './dynamodb-local.js';
import { describeError, log } from './log.js';
import { loadLocalTemplate } from './local-template.js';
import type { DirectoryDocument } from '../lambda/bos/index.js';
import { demoDirectoryDocument, seedDirectory } from './seed-directory-lib.js';
import { platformFunction, readTemplateTables } from './template-tables.js';
import type { TemplateTable } from './template-tables.js';

/** Prefix of local table names (`<prefix><table id>`). */
export const LOCAL_TABLE_PREFIX = 'bos-mcp-local-';

/**
 * Variables the local stack owns (local URLs, local origins, the dev issuer): the template's values for them
 * are deployment placeholders or CloudFormation references.
 */
const LOCALLY_OWNED = new Set([
  'MCP_ENDPOINT',
  // The stage's request limits: off locally unless a caller of the stack sets them (docs/local-stack.md).
  'MCP_RATE_LIMIT_PRINCIPAL',
  'MCP_RATE_LIMIT_TENANT',
  'MCP_RATE_LIMIT_WINDOW_SECONDS',
  'MCP_ALLOWED_ORIGINS',
  'AUTH_ISSUER',
  'AUTH_AUDIENCE',
  'AUTH_JWKS_URL',
]);

/** Running DynamoDB Local with the platform tables. */
export interface LocalTables {
  endpoint: string;
  /**
   * The deployed function's environment as the template states it (table names made local), plus
   * `AWS_ENDPOINT_URL_DYNAMODB` (read by the AWS SDK and by `loadConfig`).
   */
  environment: Record<string, string>;
  /** The supervised DynamoDB Local itself (its `pid`, for fault-injection tests). */
  dynamoDbLocal: DynamoDbLocal;
  stop(): Promise<void>;
}

/** Local name of a template table: the schema id its environment variable belongs to, else its logical id. */
export function localTableName(table: TemplateTable): string {
  const schema = tableSchemas.find((candidate) => table.environmentVariables.includes(candidate.envVar));
  return `${LOCAL_TABLE_PREFIX}${schema?.id ?? table.logicalId}`;
}

/** Creates each template table (keys, billing, TTL) as CloudFormation would; existing tables are kept. */
export async function createTemplateTables(
  endpoint: string,
  tables: readonly TemplateTable[],
): Promise<void> {
  const client = createDynamoDbClient({ endpoint, maxAttempts: 3, requestTimeoutMs: 10_000 });
  try {
    for (const table of tables) {
      const TableName = localTableName(table);
      try {
        await client.send(
          new CreateTableCommand({
            TableName,
            KeySchema: [...table.keySchema],
            AttributeDefinitions: [...table.attributeDefinitions],
            BillingMode: table.billingMode === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED',
            ...(table.billingMode === 'PAY_PER_REQUEST'
              ? {}
              : { ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 } }),
          }),
        );
        if (table.timeToLiveAttribute !== undefined)
          await client.send(
            new UpdateTimeToLiveCommand({
              TableName,
              TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true },
            }),
          );
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
      }
    }
  } finally {
    client.destroy();
  }
}

/** Logs what the DynamoDB Local supervisor reports: the local stack's data store dying is never silent. */
function logDynamoDbEvent(event: DynamoDbLocalEvent): void {
  if (event.kind === 'died')
    log('error', 'DynamoDB Local exited; restarting it', {
      code: event.code,
      signal: event.signal,
      output: event.output.slice(-1000),
    });
  else if (event.kind === 'restarted')
    log('info', 'DynamoDB Local restarted', { attempt: event.attempt, downMs: event.downMs });
  else
    log('warn', 'DynamoDB Local restart failed', {
      attempt: event.attempt,
      error: describeError(event.error),
    });
}

/**
 * Starts DynamoDB Local (free port, data in a temporary folder removed on stop) and creates every table of
 * the synthesized template, plus the source cache's baseline table (`BOS_BASELINE_TABLE`). It is supervised: if Java dies, the stack logs it and starts it again on the same
 * port with the same files, so tables, the seeded directory, sessions and replayable streams survive; calls
 * made while it is down get the outage answer (503, `Retry-After`). The directory table gets `document` (the
 * embedded demo directory unless given).
 */
export async function startLocalTables(document?: DirectoryDocument): Promise<LocalTables> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bos-mcp-dynamodb-'));
  const removeData = () => rm(dataDir, { recursive: true, force: true });
  // The template is cached per lib/ content; a cold synth runs while DynamoDB Local's JVM starts.
  const [local, template] = await Promise.all([
    startDynamoDbLocal({ dataDir, supervise: true, onEvent: logDynamoDbEvent }).catch(
      async (error: unknown) => {
        await removeData();
        throw error;
      },
    ),
    loadLocalTemplate(),
  ]);
  try {
    const { tables, functions } = readTemplateTables(template);
    // The source cache's table is opt-in when deployed (`-c sourceCache=true`) but always on locally, so the
    // demo's cached sources have their baselines; it is built from its one definition, GSIs included.
    const isBaseline = (table: TemplateTable): boolean =>
      table.environmentVariables.includes(baselineTable.envVar);
    await createTemplateTables(
      local.endpoint,
      tables.filter((table) => !isBaseline(table)),
    );
    const [baselineName] = await createTables(local.endpoint, [baselineTable], LOCAL_TABLE_PREFIX);
    const environment: Record<string, string> = {};
    const fn = platformFunction({ tables, functions });
    const names = new Map(tables.map((table) => [table.logicalId, localTableName(table)]));
    for (const [name, value] of Object.entries(fn?.environment ?? {})) {
      if (LOCALLY_OWNED.has(name)) continue;
      if (value.kind === 'literal') environment[name] = value.value;
      else if (value.kind === 'table') environment[name] = names.get(value.logicalId) ?? '';
    }
    if (baselineName !== undefined) environment[baselineTable.envVar] = baselineName;
    environment.AWS_ENDPOINT_URL_DYNAMODB = local.endpoint;
    // The platform reads its directory from BOS_DIRECTORY_TABLE: load the embedded demo directory into it.
    const directory = environment.BOS_DIRECTORY_TABLE;
    if (directory !== undefined)
      await seedDirectory(document ?? demoDirectoryDocument(), {
        table: directory,
        endpoint: local.endpoint,
      });
    const stop = async (): Promise<void> => {
      await local.stop();
      await removeData();
    };
    return { endpoint: local.endpoint, environment, stop, dynamoDbLocal: local };
  } catch (error) {
    await local.stop();
    await removeData();
    throw error;
  }
}
