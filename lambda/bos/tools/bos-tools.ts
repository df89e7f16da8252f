import type { JsonObject, McpRequestContext, StreamingToolHandler, ToolDef } from '../../mcp/index.js';
import { contextObject } from '../extension/source-result-notifier.js';
import { OPERATIONS } from '../operations/definitions.js';
import type { OperationDef } from '../operations/definitions.js';
import { callPlanner } from './call-plan.js';
import { requireGrant, requireOperation } from './context-access.js';
import type { BosToolDeps } from './deps.js';
import { envelopeResult, plainResult } from './results.js';
import { runOperation } from './run-operation.js';

/** A tool of the platform: its definition and handler. */
export interface BosTool {
  def: ToolDef;
  handler: StreamingToolHandler;
  /**
   * The tool's refusals (unknown handle, operation not permitted, invalid operation arguments), run by
   * the runtime before an SSE response is committed so they keep their JSON semantics under the streaming
   * opt-in (contract: validation failures keep their existing HTTP/JSON-RPC semantics). It resolves to the
   * call's plan (the grant read during this call, see `call-plan.ts`), which the handler of the same call
   * receives instead of reading the directory again. The tool's own arguments need no check here: the
   * runtime validated them against `def.inputSchema` before either runs.
   */
  beforeStream?: (args: JsonObject, ctx: McpRequestContext) => Promise<unknown>;
}

const CONTEXT_HANDLE = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: 'A handle from bos_list_contexts.',
};

/** Every BOS tool states its effect; the discovery tools only read the directory. */
const READ_META: JsonObject = { 'bos/effect': 'read' };

const listContextsDef: ToolDef = {
  name: 'bos_list_contexts',
  title: 'List BOS contexts',
  description: 'List the BOS contexts (organization, application, installation, role) granted to the caller.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
  _meta: READ_META,
};

const listToolsDef: ToolDef = {
  name: 'bos_list_tools',
  title: 'List BOS operations',
  description:
    'List the operations permitted in a BOS context, each with its complete input schema, effect and ' +
    'whether approval is required.',
  inputSchema: {
    type: 'object',
    properties: { context_handle: CONTEXT_HANDLE },
    required: ['context_handle'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  _meta: READ_META,
};

const executeDef: ToolDef = {
  name: 'bos_execute',
  title: 'Execute a BOS operation',
  description:
    'Run an operation permitted in a BOS context. The result is wrapped in the bos-identity-mcp/v2 ' +
    'envelope with the context it ran in.',
  inputSchema: {
    type: 'object',
    properties: {
      context_handle: CONTEXT_HANDLE,
      tool_name: {
        type: 'string',
        minLength: 1,
        maxLength: 128,
        description: 'An operation from bos_list_tools.',
      },
      arguments: { type: 'object', description: "Arguments matching the operation's input schema." },
    },
    required: ['context_handle', 'tool_name'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
  // Every operation the platform implements today is a read; a write operation would need its own
  // approval flow before bos_execute could run it.
  _meta: READ_META,
};

/** `bos_list_contexts`, `bos_list_tools` and `bos_execute`. */
export function bosTools(deps: BosToolDeps): BosTool[] {
  const listContexts: StreamingToolHandler = async (_args, ctx) => {
    const grants = ctx.principal ? await deps.directory.contextsFor(ctx.principal) : [];
    return plainResult({ contexts: grants.map((g) => contextObject(g.context)) }, ctx);
  };

  const listToolsPlan = callPlanner(async (args: JsonObject, ctx: McpRequestContext) => {
    const { context_handle } = args as { context_handle: string };
    return { grant: await requireGrant(deps, ctx, context_handle) };
  });

  const listTools: StreamingToolHandler = async (args, ctx) => {
    const { grant } = await listToolsPlan.plan(args, ctx);
    const tools = grant.operations.flatMap((name) => {
      const operation = OPERATIONS.get(name);
      return operation === undefined ? [] : [describeOperation(operation)];
    });
    return plainResult({ context: contextObject(grant.context), tools }, ctx);
  };

  const executePlan = callPlanner(async (args: JsonObject, ctx: McpRequestContext) => {
    const request = args as {
      context_handle: string;
      tool_name: string;
      arguments?: JsonObject;
    };
    // Every operation is a federated read. Its source catalog does not depend on the grant, so a due
    // reload (at most once per TTL, shared by concurrent calls) overlaps the grant read instead of
    // following it; runOperation then finds the catalog fresh.
    const [grant] = await Promise.all([
      requireGrant(deps, ctx, request.context_handle),
      deps.refreshSources?.(),
    ]);
    const operation = requireOperation(grant, request.tool_name);
    const operationArgs = await deps.validate(operation.inputSchema, request.arguments ?? {});
    return { grant, operation, operationArgs };
  });

  const execute: StreamingToolHandler = async (args, ctx) => {
    const { grant, operation, operationArgs } = await executePlan.plan(args, ctx);
    const result = await runOperation(deps, operation, operationArgs, grant, ctx);
    return envelopeResult(result, grant.context, ctx);
  };

  return [
    { def: listContextsDef, handler: listContexts },
    { def: listToolsDef, handler: listTools, beforeStream: listToolsPlan.beforeStream },
    { def: executeDef, handler: execute, beforeStream: executePlan.beforeStream },
  ];
}

/** An operation as `bos_list_tools` lists it. */
function describeOperation(operation: OperationDef): JsonObject {
  return {
    name: operation.name,
    description: operation.description,
    input_schema: operation.inputSchema,
    effect: operation.effect,
    approval_required: operation.approvalRequired,
  };
}
