/**
 * Lambda entry that serves the conformance app through the same AWS adapters as the platform entry
 * (`lambda/handlers/platform.ts`): REST v1 event -> Request -> McpServer -> streamed response. The local
 * stack bundles it when `CONFORMANCE_VIA=lambda`, so the suite runs against the real RIC + REST front.
 * It lives in `local/` because the conformance app does (nothing in `lambda/` may import `local/`).
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import {
  createDynamoDbClient,
  createInvocation,
  DynamoDbClientReplyStore,
  DynamoDbRequestStateStore,
  DynamoDbSessionStore,
  DynamoDbStreamStore,
  DynamoDbTaskStore,
  internalErrorResponse,
  parseRestEvent,
  RestEventError,
  restEventErrorResponse,
  toRequest,
  toStreamingResult,
} from '../../lambda/aws/index.js';
import type { RestProxyEvent, StreamingResult } from '../../lambda/aws/index.js';
import { createJsonLogger } from '../../lambda/mcp/index.js';
import type { McpServer } from '../../lambda/mcp/index.js';
import { createConformanceApp } from './app.js';

const logger = createJsonLogger({ base: { component: 'conformance' } });
let app: McpServer | undefined;

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
  const client = createDynamoDbClient(endpoint === undefined ? {} : { endpoint });
  return createConformanceApp({
    allowedOrigins: (env.MCP_ALLOWED_ORIGINS ?? '').split(',').filter((origin) => origin !== ''),
    overrides: {
      ...(tableName === undefined ? {} : { sessionStore: new DynamoDbSessionStore({ client, tableName }) }),
      // Tasks are polled from any environment; their rounds run where they were created or resumed.
      ...(taskTable === undefined
        ? {}
        : {
            tasks: {
              store: new DynamoDbTaskStore({ client, tableName: taskTable }),
              pollIntervalMs: 500,
              cancelPollMs: 250,
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

async function handle(event: RestProxyEvent, context: Context): Promise<StreamingResult> {
  try {
    app ??= compose();
    const parts = parseRestEvent(event);
    const invocation = createInvocation(
      context,
      parts.sourceIp === undefined ? {} : { sourceIp: parts.sourceIp },
    );
    const response = await app.handle(toRequest(parts, { signal: invocation.signal }), invocation.context);
    return toStreamingResult(response, { onAbort: (reason) => invocation.abort(reason), logger });
  } catch (error) {
    if (error instanceof RestEventError) return toStreamingResult(restEventErrorResponse(error));
    logger.error('conformance invocation failed before the response started', {
      error: error instanceof Error ? error.name : 'unknown',
    });
    return toStreamingResult(internalErrorResponse());
  }
}

/** The bundled handler (`timeoutEarlyInMillis: 0` for the reason given in the platform entry). */
export const handler = middy<RestProxyEvent, StreamingResult>({
  streamifyResponse: true,
  timeoutEarlyInMillis: 0,
  // Keeps the invocation (Lambda would freeze the environment) until a tool that closed its stream
  // mid-call (test_reconnection, SEP-1699 polling) has persisted its result for the GET replay.
  requestEnd: async () => {
    await app?.settled();
  },
}).handler(handle);
