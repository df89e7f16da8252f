/**
 * Lambda entry that serves the conformance app through the same entry as the platform
 * (`lambda/handlers/compose-entry.ts`): REST v1 event -> Request -> McpServer -> streamed response. The local
 * stack bundles it when `CONFORMANCE_VIA=lambda`, so the suite runs against the real RIC + REST front.
 * It lives in `local/` because the conformance app does (nothing in `lambda/` may import `local/`).
 */
import {
  createDynamoDbClient,
  DynamoDbClientReplyStore,
  DynamoDbRequestStateStore,
  DynamoDbSessionStore,
  DynamoDbStreamStore,
  DynamoDbTaskStore,
  LambdaTaskLauncher,
} from '../../lambda/aws/index.js';
import { createRestEntry } from '../../lambda/handlers/compose-entry.js';
import type { McpServer } from '../../lambda/mcp/index.js';
import { createConformanceApp } from './app.js';

/**
 * Composed on the first invocation. Sessions go to DynamoDB when the stack passes a table: the stack runs
 * several execution environments and any of them may receive a session's next request.
 */
function compose(): McpServer {
  const env = process.env;
  const tableName = env.MCP_SESSION_TABLE;
  const streamTable = env.MCP_STREAM_TABLE;
  const taskTable = env.MCP_TASK_TABLE;
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB;
  const functionName = env.AWS_LAMBDA_FUNCTION_NAME;
  const lambdaEndpoint = env.AWS_ENDPOINT_URL_LAMBDA;
  const client = createDynamoDbClient(endpoint === undefined ? {} : { endpoint });
  return createConformanceApp({
    allowedOrigins: (env.MCP_ALLOWED_ORIGINS ?? '').split(',').filter((origin) => origin !== ''),
    overrides: {
      ...(tableName === undefined ? {} : { sessionStore: new DynamoDbSessionStore({ client, tableName }) }),
      // Tasks are polled from any environment; each round runs in its own invocation of this function,
      // through the stack's Invoke API, as the platform's do (docs/tasks.md "Execution").
      ...(taskTable === undefined
        ? {}
        : {
            tasks: {
              store: new DynamoDbTaskStore({ client, tableName: taskTable }),
              pollIntervalMs: 500,
              cancelPollMs: 250,
              ...(functionName !== undefined && {
                launcher: new LambdaTaskLauncher({
                  functionName,
                  ...(lambdaEndpoint === undefined ? {} : { endpoint: lambdaEndpoint }),
                }),
              }),
            },
          }),
      // Replay events and client replies must reach whichever environment serves the next request.
      ...(streamTable === undefined
        ? {}
        : {
            streamStore: new DynamoDbStreamStore({ client, tableName: streamTable }),
            clientReplyStore: new DynamoDbClientReplyStore({ client, tableName: streamTable }),
            // Multi-round retries may reach another environment: shared ledger and shared secret.
            requestStateStore: new DynamoDbRequestStateStore(client, streamTable),
            requestStateSecret: 'local-conformance-only',
          }),
    },
  });
}

/**
 * The bundled handler: the platform's REST v1 streaming entry (`createRestEntry`) around the conformance app,
 * which serves every path. The entry keeps the invocation open until calls that closed their stream mid-call
 * (test_reconnection, SEP-1699 polling) have persisted their result for the GET replay (`settled`).
 */
export const handler = createRestEntry({
  component: 'conformance',
  serves: () => true,
  compose: () => compose(),
});
