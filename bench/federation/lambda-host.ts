/**
 * Runs a REST v1 streaming Lambda handler in this process, the way the Lambda runtime runs it: the
 * `awslambda` global that the runtime client (aws-lambda-ric) installs before the handler module loads, a
 * response stream that takes the prelude and then the body, and a Lambda context whose remaining time counts
 * down. Each call reports the figures of `docs/performance.md`: CPU, wall time to the final frame, time to
 * the first source page, peak RSS and the bytes of each kind of SSE event.
 *
 * Import the handler module only after {@link installLambdaGlobal}: middy decides at creation whether it
 * streams.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { SseMeter } from './sse-meter.js';
import type { CapturedEvents, SseFigures } from './sse-meter.js';

/** A streaming handler as middy's `streamifyResponse` mode returns it. */
export type StreamingHandler = (
  event: APIGatewayProxyEvent,
  responseStream: Writable,
  context: Context,
) => Promise<unknown>;

/**
 * Installs the `awslambda` global with the two members the handler uses, behaving as aws-lambda-ric 4.0.2
 * does: `streamifyResponse` marks the handler, `HttpResponseStream.from` hands the prelude to the stream
 * before its first body byte.
 */
export function installLambdaGlobal(): void {
  (globalThis as { awslambda?: unknown }).awslambda = {
    streamifyResponse: <T>(handler: T): T => handler,
    HttpResponseStream: {
      from(stream: Writable, metadata: Record<string, unknown>): Writable {
        if (stream instanceof SseMeter) stream.prelude(metadata);
        return stream;
      },
    },
  };
}

/** A stateless (2026-07-28) `tools/call` of `bos_execute` that opts in to `bos/source-results/v1`. */
export function streamedExecuteEvent(
  token: string,
  contextHandle: string,
  operation: string,
  args: Record<string, unknown>,
): APIGatewayProxyEvent {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'bos_execute',
      arguments: { context_handle: contextHandle, tool_name: operation, arguments: args },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { experimental: { 'bos/source-results/v1': {} } },
      },
    },
  });
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${token}`,
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 'bos_execute',
  };
  const path = '/mcp/apps/bos/platform';
  return {
    resource: path,
    path,
    httpMethod: 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'bench-request',
      stage: 'local',
      path: `/local${path}`,
      resourcePath: path,
      httpMethod: 'POST',
      identity: { sourceIp: '127.0.0.1' },
    },
  } as unknown as APIGatewayProxyEvent;
}

/** A Lambda context with `remainingMs` left, counting down in real time. */
function lambdaContext(remainingMs: number): Context {
  const startedAt = Date.now();
  return {
    awsRequestId: 'bench-invocation',
    getRemainingTimeInMillis: () => remainingMs - (Date.now() - startedAt),
    functionName: 'platform',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:platform',
    memoryLimitInMB: '1024',
    logGroupName: '/aws/lambda/platform',
    logStreamName: 'bench',
    callbackWaitsForEmptyEventLoop: false,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The figures of one call. */
export interface CallFigures extends SseFigures {
  /** Process CPU (user + system, every thread) from the event until the handler returned. */
  cpuMs: number;
  /** Peak resident set size during the call (Linux: `VmHWM`, reset before it; else the process peak). */
  peakRssMb: number;
  /** Each event's `data` text, when the call was made with `capture`. */
  events: CapturedEvents;
}

/**
 * Linux keeps a resettable peak RSS (`VmHWM`; writing 5 to `/proc/self/clear_refs` resets it), so each call
 * reports its own peak; elsewhere the figure is the process's peak so far.
 */
function resetPeakRss(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux: the process peak is reported instead.
  }
}

function peakRssMb(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (hwm !== undefined) return Number(hwm) / 1024;
  } catch {
    // Not Linux: fall through to the process peak.
  }
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Invokes `handler` with `event` and a 900 s function timeout, reading the response as a fast client.
 * `capture` keeps every event's data (for the floor; it costs the reader CPU, so not for measured calls).
 */
export async function invoke(
  handler: StreamingHandler,
  event: APIGatewayProxyEvent,
  options: { capture?: boolean } = {},
): Promise<CallFigures> {
  resetPeakRss();
  const cpu = process.cpuUsage();
  const meter = new SseMeter(performance.now(), options);
  await handler(event, meter, lambdaContext(900_000));
  const used = process.cpuUsage(cpu);
  const figures = meter.figures();
  if (figures.statusCode !== 200 || figures.finalFrames !== 1)
    throw new Error(`unexpected response: HTTP ${figures.statusCode}, ${figures.finalFrames} final frames`);
  return {
    ...figures,
    cpuMs: (used.user + used.system) / 1000,
    peakRssMb: peakRssMb(),
    events: meter.captured(),
  };
}
