/**
 * The fixture tools the `tasks-*` scenarios of `@modelcontextprotocol/conformance@0.2.0-alpha.12` name
 * (SEP-2663 tasks extension): `greet` (synchronous), `slow_compute`, `failing_job`, `protocol_error_job`,
 * `confirm_delete`, `multi_input` and `test_tool_with_task`. Names, argument keys and the required task
 * support levels are what the scenarios check; texts are ours.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { JsonRpcCode, McpError } from '../../lambda/mcp/index.js';
import type { McpServer } from '../../lambda/mcp/index.js';
import type {
  InputRequest,
  JsonObject,
  McpRequestContext,
  ToolResult,
} from '../../lambda/mcp/types/index.js';

const NO_ARGS: JsonObject = { type: 'object', properties: {} };

const text = (value: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError && { isError }),
});

function ask(message: string, properties: JsonObject): InputRequest {
  return {
    method: 'elicitation/create',
    params: { message, requestedSchema: { type: 'object', properties } },
  };
}

function needInput(inputRequests: Record<string, InputRequest>): ToolResult {
  return { content: [], resultType: 'input_required', inputRequests };
}

/** The accepted elicitation content for `key`, if the client answered it with `accept`. */
function accepted(ctx: McpRequestContext, key: string): JsonObject | undefined {
  const response = ctx.inputResponses?.[key];
  if (typeof response !== 'object' || response === null || Array.isArray(response)) return undefined;
  const content = response.content;
  if (
    response.action !== 'accept' ||
    typeof content !== 'object' ||
    content === null ||
    Array.isArray(content)
  )
    return undefined;
  return content;
}

function answered(ctx: McpRequestContext, key: string): boolean {
  const response = ctx.inputResponses?.[key];
  return typeof response === 'object' && response !== null && !Array.isArray(response);
}

/** Registers the task scenario tools on `server` (which must have a task runtime to run them as tasks). */
export function registerConformanceTaskTools(server: McpServer): void {
  server.registerTool(
    {
      name: 'greet',
      description: 'Greets synchronously (never a task)',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    },
    (args) => Promise.resolve(text(`Hello, ${typeof args.name === 'string' ? args.name : 'World'}!`)),
  );
  server.registerTool(
    {
      name: 'slow_compute',
      description: 'Sleeps for `seconds`, then answers; stops when its task is cancelled',
      inputSchema: {
        type: 'object',
        properties: { seconds: { type: 'number', minimum: 0, maximum: 600 }, label: { type: 'string' } },
      },
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      const seconds = typeof args.seconds === 'number' ? args.seconds : 1;
      await sleep(seconds * 1000, undefined, { signal: ctx.signal });
      const label = typeof args.label === 'string' ? args.label : 'job';
      return text(`Computed ${label} in ${seconds} s`);
    },
  );
  server.registerTool(
    {
      name: 'failing_job',
      description: 'Runs for about a second, then reports a tool error',
      inputSchema: NO_ARGS,
      execution: { taskSupport: 'required' },
    },
    async (_args, ctx) => {
      await sleep(1000, undefined, { signal: ctx.signal });
      return text('The job failed: the input could not be processed', true);
    },
  );
  server.registerTool(
    {
      name: 'protocol_error_job',
      description: 'Fails with a JSON-RPC error (not a tool error)',
      inputSchema: NO_ARGS,
      execution: { taskSupport: 'optional' },
    },
    () => Promise.reject(new McpError(JsonRpcCode.InternalError, 'The job hit an internal error')),
  );
  registerInputTools(server);
}

function registerInputTools(server: McpServer): void {
  server.registerTool(
    {
      name: 'confirm_delete',
      description: 'Asks for confirmation before deleting `filename`',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
      execution: { taskSupport: 'optional' },
    },
    (args, ctx) => {
      const filename = typeof args.filename === 'string' ? args.filename : '';
      if (!answered(ctx, 'confirm')) {
        return Promise.resolve(
          needInput({ confirm: ask(`Delete ${filename}?`, { confirm: { type: 'boolean' } }) }),
        );
      }
      const yes = accepted(ctx, 'confirm')?.confirm === true;
      return Promise.resolve(text(yes ? `Deleted ${filename}` : `Kept ${filename}`));
    },
  );
  server.registerTool(
    {
      name: 'multi_input',
      description: 'Asks two questions at once and answers once both are answered',
      inputSchema: NO_ARGS,
      execution: { taskSupport: 'optional' },
    },
    (_args, ctx) => {
      const keys = ['user_name', 'confirmation'];
      if (keys.every((key) => answered(ctx, key))) {
        const name = accepted(ctx, 'user_name')?.name;
        return Promise.resolve(
          text(`Both answers received (${typeof name === 'string' ? name : 'no name'})`),
        );
      }
      return Promise.resolve(
        needInput({
          user_name: ask('What is your name?', { name: { type: 'string' } }),
          confirmation: ask('Shall I go ahead?', { confirm: { type: 'boolean' } }),
        }),
      );
    },
  );
  server.registerTool(
    {
      name: 'test_tool_with_task',
      description: 'Asks for a name synchronously, then greets as a task',
      inputSchema: NO_ARGS,
      execution: { taskSupport: 'required' },
    },
    (_args, ctx) => {
      const name = accepted(ctx, 'user_name')?.name;
      return Promise.resolve(text(`Hello, ${typeof name === 'string' ? name : 'stranger'}! (from a task)`));
    },
    {
      beforeTask: (_args, ctx) =>
        Promise.resolve(
          typeof accepted(ctx, 'user_name')?.name === 'string'
            ? undefined
            : needInput({ user_name: ask('What is your name?', { name: { type: 'string' } }) }),
        ),
    },
  );
}
