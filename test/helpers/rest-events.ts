/**
 * Factories for API Gateway REST v1 proxy events and Lambda contexts, with overrides, for tests.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/** A minimal valid POST event on the platform endpoint; override any field. */
export function restEvent(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  const base = {
    resource: '/mcp/apps/bos/platform',
    path: '/mcp/apps/bos/platform',
    httpMethod: 'POST',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'api-req-1',
      stage: 'prod',
      path: '/prod/mcp/apps/bos/platform',
      resourcePath: '/mcp/apps/bos/platform',
      httpMethod: 'POST',
      identity: { sourceIp: '198.51.100.7' },
    },
  };
  return { ...base, ...overrides } as unknown as APIGatewayProxyEvent;
}

/** A JSON-RPC POST as an MCP client sends it (session-ful 2025-11-25 shape unless headers say otherwise). */
export function mcpPostEvent(
  message: unknown,
  headers: Record<string, string> = {},
  overrides: Partial<APIGatewayProxyEvent> = {},
): APIGatewayProxyEvent {
  return restEvent({
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
    ...overrides,
  });
}

/** A Lambda context whose remaining time counts down from `remainingMs`. */
export function lambdaContext(overrides: { awsRequestId?: string; remainingMs?: number } = {}): Context {
  const startedAt = Date.now();
  const remainingMs = overrides.remainingMs ?? 30_000;
  return {
    awsRequestId: overrides.awsRequestId ?? 'lambda-req-1',
    getRemainingTimeInMillis: () => remainingMs - (Date.now() - startedAt),
    functionName: 'platform',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:platform',
    memoryLimitInMB: '1024',
    logGroupName: '/aws/lambda/platform',
    logStreamName: 'stream',
    callbackWaitsForEmptyEventLoop: false,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
