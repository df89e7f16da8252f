/**
 * A small MCP server for the tests of the runtime and the local stack without the BOS app: `echo` (buffered)
 * and `demo_events` (streaming: N progress notifications D ms apart), enough to exercise the local stack end
 * to end — prelude, SSE framing, backpressure, disconnect, sessions in DynamoDB.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { McpServer } from '../../lambda/mcp/index.js';
import type {
  JsonObject,
  McpServerOptions,
  StreamingToolContext,
  ToolResult,
} from '../../lambda/mcp/index.js';

/** What the composition root passes in; everything else is fixed for the demo. */
export type DemoServerOptions = Pick<
  McpServerOptions,
  | 'sessionStore'
  | 'streamStore'
  | 'clientReplyStore'
  | 'sessionTtlMinutes'
  | 'allowedOrigins'
  | 'logger'
  | 'callTelemetry'
  | 'telemetry'
  | 'clock'
  | 'newSessionId'
>;

const ECHO_SCHEMA: JsonObject = {
  type: 'object',
  properties: { message: { type: 'string', maxLength: 10_000 } },
  required: ['message'],
  additionalProperties: false,
};

const EVENTS_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    count: { type: 'integer', minimum: 0, maximum: 1000, default: 3 },
    delayMs: { type: 'integer', minimum: 0, maximum: 60_000, default: 100 },
  },
  additionalProperties: false,
};

function integerArg(args: JsonObject, name: string, fallback: number): number {
  const value = args[name];
  return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}

/**
 * Emits `count` progress notifications, `delayMs` apart. Progress needs the caller's
 * `params._meta.progressToken` (MCP progress utility); without one the call still runs and only the final
 * result is sent.
 */
async function demoEvents(args: JsonObject, ctx: StreamingToolContext): Promise<ToolResult> {
  const count = integerArg(args, 'count', 3);
  const delayMs = integerArg(args, 'delayMs', 100);
  for (let index = 1; index <= count; index += 1) {
    // Aborts when the client goes away or the deadline passes; the runtime turns that into its own answer.
    await delay(delayMs, undefined, { signal: ctx.signal });
    await ctx.ready?.();
    ctx.progress(index, count, `event ${index} of ${count}`);
  }
  return { content: [{ type: 'text', text: `sent ${count} events` }] };
}

/** Builds the demo server. */
export function createDemoServer(options: DemoServerOptions): McpServer {
  const server = new McpServer({ name: 'bos-mcp-demo', version: '0.1.0', ...options });
  server.registerTool(
    { name: 'echo', description: 'Returns the message it was given.', inputSchema: ECHO_SCHEMA },
    (args) => {
      // The input schema requires a string; the check keeps the handler total anyway.
      const message = args['message'];
      return Promise.resolve({
        content: [{ type: 'text', text: typeof message === 'string' ? message : '' }],
      });
    },
  );
  server.registerStreamingTool(
    {
      name: 'demo_events',
      description: 'Streams `count` progress notifications `delayMs` apart (send a progressToken).',
      inputSchema: EVENTS_SCHEMA,
    },
    demoEvents,
  );
  return server;
}
