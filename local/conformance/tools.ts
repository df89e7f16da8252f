/**
 * The tools the server scenarios of `@modelcontextprotocol/conformance@0.2.0-alpha.12` call at the
 * 2025-11-25 wire. Names, arguments and the shape of each result are what the scenario checks; the text
 * is ours. Tools that talk to the client while they run (logging, progress, sampling, elicitation) are
 * streaming tools, because in the session-ful shape those messages travel on the POST's SSE response.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { McpServer } from '../../lambda/mcp/index.js';
import type { JsonObject, StreamingToolContext, ToolResult } from '../../lambda/mcp/types/index.js';
import {
  DEFAULTS_FORM,
  ENUMS_FORM,
  JSON_SCHEMA_2020_12,
  LOG_LINES,
  PNG_1X1_BASE64,
  WAV_BASE64,
} from './content.js';

const NO_ARGS: JsonObject = { type: 'object', properties: {} };
/** How long test_reconnection keeps working after closing its stream: long enough to outlast the close. */
const RECONNECTION_WORK_MS = 300;

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });

/** Registers every conformance tool on `server`. */
export function registerConformanceTools(server: McpServer): void {
  registerContentTools(server);
  registerNotifyingTools(server);
  registerClientRequestTools(server);
  server.registerTool(
    {
      name: 'json_schema_2020_12_tool',
      description: 'Has a JSON Schema 2020-12 input schema that must be listed verbatim',
      inputSchema: JSON_SCHEMA_2020_12,
    },
    (args) => Promise.resolve(text(`json_schema_2020_12_tool received ${JSON.stringify(args)}`)),
  );
}

/** tools-call-simple-text, -image, -audio, -embedded-resource, -mixed-content, -error. */
function registerContentTools(server: McpServer): void {
  server.registerTool(
    { name: 'test_simple_text', description: 'Returns one text block', inputSchema: NO_ARGS },
    () => Promise.resolve(text('Plain text from test_simple_text.')),
  );
  server.registerTool(
    { name: 'test_image_content', description: 'Returns one PNG image block', inputSchema: NO_ARGS },
    () => Promise.resolve({ content: [{ type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/png' }] }),
  );
  server.registerTool(
    { name: 'test_audio_content', description: 'Returns one WAV audio block', inputSchema: NO_ARGS },
    () => Promise.resolve({ content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] }),
  );
  server.registerTool(
    {
      name: 'test_embedded_resource',
      description: 'Returns one embedded text resource',
      inputSchema: NO_ARGS,
    },
    () =>
      Promise.resolve({
        content: [
          {
            type: 'resource',
            resource: {
              uri: 'test://embedded-resource',
              mimeType: 'text/plain',
              text: 'Embedded resource body.',
            },
          },
        ],
      }),
  );
  server.registerTool(
    {
      name: 'test_multiple_content_types',
      description: 'Returns text, image and embedded resource blocks',
      inputSchema: NO_ARGS,
    },
    () =>
      Promise.resolve({
        content: [
          { type: 'text', text: 'Three kinds of content follow.' },
          { type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: {
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: '{"kind":"mixed","count":3}',
            },
          },
        ],
      }),
  );
  // A tool failure is a result with isError (MCP tools: "errors … reported in the result"), not a
  // JSON-RPC error, which is reserved for protocol problems.
  server.registerTool(
    { name: 'test_error_handling', description: 'Always fails as a tool error', inputSchema: NO_ARGS },
    () => Promise.resolve({ ...text('test_error_handling failed on purpose.'), isError: true }),
  );
}

/** tools-call-with-logging, tools-call-with-progress, server-sse-polling. */
function registerNotifyingTools(server: McpServer): void {
  server.registerStreamingTool(
    { name: 'test_tool_with_logging', description: 'Sends three log notifications', inputSchema: NO_ARGS },
    (_args, ctx) => {
      for (const line of LOG_LINES) ctx.log('info', line, 'conformance');
      return Promise.resolve(text('test_tool_with_logging finished.'));
    },
  );
  server.registerStreamingTool(
    {
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => {
      for (const step of [0, 50, 100]) ctx.progress(step, 100, `step ${step} of 100`);
      const token = (ctx.meta.progressToken as string | number | undefined) ?? 'none';
      return Promise.resolve(text(`progress token ${String(token)}`));
    },
  );
  server.registerStreamingTool(
    {
      name: 'test_reconnection',
      description: 'Closes its SSE stream mid-call; the client resumes with Last-Event-ID for the result',
      inputSchema: NO_ARGS,
    },
    // server-sse-polling (SEP-1699): the POST stream ends after the priming event, the call goes on, and
    // the result reaches the client only through the GET replay after it reconnects.
    async (_args, ctx) => {
      ctx.closeStream?.();
      await delay(RECONNECTION_WORK_MS, undefined, { signal: ctx.signal });
      return text('test_reconnection finished.');
    },
  );
}

/** tools-call-sampling, tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums. */
function registerClientRequestTools(server: McpServer): void {
  server.registerStreamingTool(
    {
      name: 'test_sampling',
      description: 'Asks the client to sample a completion for the prompt',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    },
    async (args, ctx) => {
      const prompt = typeof args.prompt === 'string' ? args.prompt : '';
      const reply = await ctx.request('sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 64,
      });
      const content = reply.content as { text?: unknown } | undefined;
      return text(`sampled: ${typeof content?.text === 'string' ? content.text : '(no text)'}`);
    },
  );
  server.registerStreamingTool(
    {
      name: 'test_elicitation',
      description: 'Asks the user for input through the client',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
    (args, ctx) =>
      elicit(ctx, typeof args.message === 'string' ? args.message : 'Please answer', {
        type: 'object',
        properties: { response: { type: 'string', description: 'Your answer' } },
        required: ['response'],
      }),
  );
  server.registerStreamingTool(
    {
      name: 'test_elicitation_sep1034_defaults',
      description: 'Elicits a form with defaults',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => elicit(ctx, 'Review the prefilled fields', DEFAULTS_FORM),
  );
  server.registerStreamingTool(
    {
      name: 'test_elicitation_sep1330_enums',
      description: 'Elicits a form with enum fields',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => elicit(ctx, 'Choose from the lists', ENUMS_FORM),
  );
}

async function elicit(
  ctx: StreamingToolContext,
  message: string,
  requestedSchema: JsonObject,
): Promise<ToolResult> {
  const reply = await ctx.request('elicitation/create', { mode: 'form', message, requestedSchema });
  return text(
    `elicitation ${typeof reply.action === 'string' ? reply.action : 'unknown'}: ${JSON.stringify(reply.content ?? {})}`,
  );
}
