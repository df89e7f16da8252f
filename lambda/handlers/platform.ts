/**
 * Lambda entry of the platform endpoint: `@middy/core` in `streamifyResponse` mode (middy writes the prelude
 * via `awslambda.HttpResponseStream.from` and pipes our body). Composition: config -> stores -> McpServer ->
 * adapters. Composed on the first invocation (cold start), so importing this module does no work.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import {
  createDynamoDbClient,
  createInvocation,
  errorFields,
  DynamoDbSessionStore,
  internalErrorResponse,
  jsonRpcErrorResponse,
  loadConfig,
  parseRestEvent,
  RestEventError,
  restEventErrorResponse,
  toRequest,
  toStreamingResult,
} from '../aws/index.js';
import type { RestProxyEvent, StreamingResult } from '../aws/index.js';
import { createJsonLogger } from '../mcp/index.js';
import type { Logger, McpServer } from '../mcp/index.js';
import { createDemoServer } from './demo-server.js';

/** The platform endpoint (DESIGN §1); the same constant the CDK routes (`lib/routes.ts`). */
const MCP_PATH = '/mcp/apps/bos/platform';

interface App {
  server: McpServer;
  logger: Logger;
  origin?: string;
}

function compose(logger: Logger): App {
  const config = loadConfig(process.env);
  const tableName = config.sessions.tableName;
  const client = () =>
    createDynamoDbClient({
      ...(config.dynamoDbEndpoint === undefined ? {} : { endpoint: config.dynamoDbEndpoint }),
      ...(config.region === undefined ? {} : { region: config.region }),
    });
  const server = createDemoServer({
    ...(tableName === undefined
      ? {}
      : { sessionStore: new DynamoDbSessionStore({ client: client(), tableName }) }),
    sessionTtlMinutes: config.sessions.ttlMinutes,
    allowedOrigins: config.allowedOrigins,
    logger,
  });
  return { server, logger, ...(config.endpoint === undefined ? {} : { origin: config.endpoint.origin }) };
}

let app: App | undefined;

async function handle(event: RestProxyEvent, context: Context): Promise<StreamingResult> {
  const logger = app?.logger ?? createJsonLogger({ base: { component: 'platform' } });
  try {
    app ??= compose(logger);
    const parts = parseRestEvent(event);
    const invocation = createInvocation(
      context,
      parts.sourceIp === undefined ? {} : { sourceIp: parts.sourceIp },
    );
    if (parts.path !== MCP_PATH) return toStreamingResult(jsonRpcErrorResponse(404, -32600, 'Not Found'));
    const request = toRequest(parts, {
      signal: invocation.signal,
      ...(app.origin && { origin: app.origin }),
    });
    const response = await app.server.handle(request, invocation.context);
    return toStreamingResult(response, { onAbort: (reason) => invocation.abort(reason), logger });
  } catch (error) {
    if (error instanceof RestEventError) return toStreamingResult(restEventErrorResponse(error));
    // ConfigError lands here too: its problem list goes to the log, never to the client.
    logger.error('invocation failed before the response started', errorFields(error));
    return toStreamingResult(internalErrorResponse());
  }
}

/**
 * The deployed handler. `timeoutEarlyInMillis: 0`: middy's early timeout would throw after the handler
 * returned nothing, which API Gateway shows as a 502; the runtime gets the deadline instead and answers
 * before it.
 */
export const handler = middy<RestProxyEvent, StreamingResult>({
  streamifyResponse: true,
  timeoutEarlyInMillis: 0,
}).handler(handle);
