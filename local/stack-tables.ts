/**
 * DynamoDB for the local stack: DynamoDB Local (`local/dynamodb-local.ts`) with the platform's tables created
 * from `lib/table-schemas.ts`, and the function environment that names them (DESIGN §6).
 */
import { tableSchemas } from '../lib/table-schemas.js';
import { startDynamoDbLocal } from './dynamodb-local.js';

/** Prefix of local table names (`<prefix><schema id>`). */
export const LOCAL_TABLE_PREFIX = 'bos-mcp-local-';

/** Running DynamoDB Local with the platform tables. */
export interface LocalTables {
  endpoint: string;
  /** `MCP_SESSION_TABLE`, … and `AWS_ENDPOINT_URL_DYNAMODB` (read by the AWS SDK and by `loadConfig`). */
  environment: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local (in memory, free port) and creates every platform table. */
export async function startLocalTables(): Promise<LocalTables> {
  const local = await startDynamoDbLocal({ tables: { schemas: tableSchemas, prefix: LOCAL_TABLE_PREFIX } });
  const environment: Record<string, string> = { AWS_ENDPOINT_URL_DYNAMODB: local.endpoint };
  for (const schema of tableSchemas) environment[schema.envVar] = `${LOCAL_TABLE_PREFIX}${schema.id}`;
  return { endpoint: local.endpoint, environment, stop: () => local.stop() };
}
