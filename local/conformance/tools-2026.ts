/**
 * The tools and prompt the 2026-07-28 server scenarios of `@modelcontextprotocol/conformance@0.2.0-
 * alpha.12` call (`--requirements 2026-07-28`): multi-round input (`input-required-result-*`), the
 * `server-stateless` probes (`test_missing_capability`, `test_streaming_elicitation`,
 * `test_logging_tool`) and an `x-mcp-header` tool (`http-custom-header-server-validation`). Names and
 * input keys are what the scenarios check; texts are ours. The runtime owns `requestState` integrity.
 */
import type { McpServer } from '../../lambda/mcp/index.js';
import type {
  InputRequest,
  JsonObject,
  McpRequestContext,
  PromptResult,
  ToolResult,
} from '../../lambda/mcp/types/index.js';

const NO_ARGS: JsonObject = { type: 'object', properties: {} };

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });

function ask(message: string, property: string): InputRequest {
  return {
    method: 'elicitation/create',
    params: {
      message,
      requestedSchema: {
        type: 'object',
        properties: { [property]: { type: 'string' } },
        required: [property],
      },
    },
  };
}

function sample(prompt: string, maxTokens: number): InputRequest {
  return {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens },
  };
}

const listRoots: InputRequest = { method: 'roots/list', params: {} };

function needInput(inputRequests: Record<string, InputRequest>, requestState?: string): ToolResult {
  return {
    content: [],
    resultType: 'input_required',
    inputRequests,
    ...(requestState !== undefined && { requestState }),
  };
}

/** The accepted elicitation `content` of input `key`, if the client answered it. */
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

/** Any object answer for input `key` (sampling and roots results have no `action`). */
function answered(ctx: McpRequestContext, key: string): JsonObject | undefined {
  const response = ctx.inputResponses?.[key];
  return typeof response === 'object' && response !== null && !Array.isArray(response) ? response : undefined;
}

/** Registers the 2026-07-28 scenario tools and prompt on `server`. */
export function registerConformance2026(server: McpServer): void {
  registerSingleInputTools(server);
  registerStatefulInputTools(server);
  registerProbeTools(server);
  server.registerPrompt(
    { name: 'test_input_required_result_prompt', description: 'Asks for context before rendering' },
    (_args, ctx): Promise<PromptResult> => {
      const context = accepted(ctx, 'user_context')?.context;
      if (typeof context !== 'string') {
        return Promise.resolve({
          messages: [],
          resultType: 'input_required',
          inputRequests: { user_context: ask('What context should the prompt use?', 'context') },
        });
      }
      return Promise.resolve({
        messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }],
      });
    },
  );
}

/** input-required-result-basic-*: one input request, no state. */
function registerSingleInputTools(server: McpServer): void {
  server.registerTool(
    { name: 'test_input_required_result_elicitation', description: 'Asks for a name', inputSchema: NO_ARGS },
    (_args, ctx) => {
      const name = accepted(ctx, 'user_name')?.name;
      return Promise.resolve(
        typeof name === 'string'
          ? text(`Hello, ${name}!`)
          : needInput({ user_name: ask('What is your name?', 'name') }),
      );
    },
  );
  server.registerTool(
    {
      name: 'test_input_required_result_sampling',
      description: 'Asks the client model',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => {
      const reply = answered(ctx, 'capital_question')?.content;
      const said =
        typeof reply === 'object' && reply !== null && !Array.isArray(reply) ? reply.text : undefined;
      return Promise.resolve(
        said === undefined
          ? needInput({ capital_question: sample('What is the capital of France?', 100) })
          : text(`The model said: ${typeof said === 'string' ? said : 'something'}`),
      );
    },
  );
  server.registerTool(
    {
      name: 'test_input_required_result_list_roots',
      description: 'Asks for the roots',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => {
      const roots = answered(ctx, 'client_roots')?.roots;
      return Promise.resolve(
        Array.isArray(roots)
          ? text(
              `Roots: ${roots.map((r) => (typeof r === 'object' && r !== null && !Array.isArray(r) && typeof r.uri === 'string' ? r.uri : '?')).join(', ')}`,
            )
          : needInput({ client_roots: listRoots }),
      );
    },
  );
  server.registerTool(
    {
      name: 'test_input_required_result_capabilities',
      description: 'Asks only for what the client declared',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => {
      const requests: Record<string, InputRequest> = {};
      if (ctx.clientCapabilities.sampling !== undefined) requests.model = sample('Say hello', 20);
      if (ctx.clientCapabilities.elicitation !== undefined) requests.user = ask('Who are you?', 'name');
      if (Object.keys(requests).length === 0 || ctx.inputResponses !== undefined) {
        return Promise.resolve(text('No input needed'));
      }
      return Promise.resolve(needInput(requests));
    },
  );
}

/** input-required-result-request-state, -multiple-input-requests, -multi-round, -tampered-state. */
function registerStatefulInputTools(server: McpServer): void {
  server.registerTool(
    {
      name: 'test_input_required_result_request_state',
      description: 'Round-trips state',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) =>
      Promise.resolve(
        ctx.requestState === 'awaiting-confirm' && accepted(ctx, 'confirm') !== undefined
          ? text('state-ok: confirmation received')
          : needInput({ confirm: ask('Please confirm', 'ok') }, 'awaiting-confirm'),
      ),
  );
  server.registerTool(
    {
      name: 'test_input_required_result_tampered_state',
      description: 'Refuses altered state',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) =>
      Promise.resolve(
        ctx.requestState === 'tamper-check' && ctx.inputResponses !== undefined
          ? text('state verified')
          : needInput({ confirm: ask('Please confirm', 'ok') }, 'tamper-check'),
      ),
  );
  server.registerTool(
    {
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks three things',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => {
      const keys = ['user_name', 'greeting', 'client_roots'];
      if (ctx.requestState === 'multiple' && keys.every((k) => answered(ctx, k) !== undefined)) {
        return Promise.resolve(text('All inputs received'));
      }
      return Promise.resolve(
        needInput(
          {
            user_name: ask('What is your name?', 'name'),
            greeting: sample('Generate a greeting', 50),
            client_roots: listRoots,
          },
          'multiple',
        ),
      );
    },
  );
  server.registerTool(
    { name: 'test_input_required_result_multi_round', description: 'Asks twice', inputSchema: NO_ARGS },
    (_args, ctx) => {
      const name = accepted(ctx, 'step1')?.name;
      if (ctx.requestState === 'round-1' && typeof name === 'string') {
        return Promise.resolve(
          needInput({ step2: ask('Step 2: What is your favorite color?', 'color') }, `round-2:${name}`),
        );
      }
      const color = accepted(ctx, 'step2')?.color;
      if (ctx.requestState?.startsWith('round-2:') === true && typeof color === 'string') {
        return Promise.resolve(text(`${ctx.requestState.slice(8)} likes ${color}`));
      }
      return Promise.resolve(needInput({ step1: ask('Step 1: What is your name?', 'name') }, 'round-1'));
    },
  );
}

/** server-stateless probes and the x-mcp-header tool. */
function registerProbeTools(server: McpServer): void {
  server.registerTool(
    {
      name: 'test_missing_capability',
      description: 'Needs sampling; the runtime refuses with -32021 when the client did not declare it',
      inputSchema: NO_ARGS,
    },
    () => Promise.resolve(needInput({ model: sample('Summarise', 20) })),
  );
  server.registerStreamingTool(
    { name: 'test_streaming_elicitation', description: 'Asks through input_required', inputSchema: NO_ARGS },
    (_args, ctx) => {
      ctx.progress(1, 1, 'asking');
      return Promise.resolve(
        accepted(ctx, 'user') === undefined
          ? needInput({ user: ask('Who are you?', 'name') })
          : text('thanks'),
      );
    },
  );
  server.registerStreamingTool(
    {
      name: 'test_logging_tool',
      description: 'Logs; silent unless _meta logLevel is set',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => {
      ctx.log('info', 'logging tool ran');
      return Promise.resolve(text('logged'));
    },
  );
  server.registerTool(
    {
      name: 'test_custom_headers',
      description: 'Mirrors its region argument as the Mcp-Param-Region header',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    },
    (args) => Promise.resolve(text(`region ${typeof args.region === 'string' ? args.region : ''}`)),
  );
}
