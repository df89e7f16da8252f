import { ToolError } from '../../mcp/index.js';
import type { JsonObject, McpRequestContext, StreamingToolHandler, ToolDef } from '../../mcp/index.js';
import type { ContextGrant } from '../directory/types.js';
import { OPERATIONS } from '../operations/definitions.js';
import type { OperationDef } from '../operations/definitions.js';
import type { BosTool } from './bos-tools.js';
import { callPlanner } from './call-plan.js';
import type { CallPlanner } from './call-plan.js';
import { requireDefaultGrant } from './context-access.js';
import type { BosToolDeps } from './deps.js';
import { directResult } from './results.js';
import { runOperation } from './run-operation.js';

/**
 * The federated read operations registered as MCP tools of their own, run in the caller's default
 * context (DESIGN §5). The grant is looked up on every call, once (see `call-plan.ts`).
 */
export function directTools(deps: BosToolDeps): BosTool[] {
  return [...OPERATIONS.values()].map((operation) => {
    const planner = callPlanner((args, ctx) => directPlan(deps, operation, args, ctx));
    return {
      def: directDef(operation),
      handler: directHandler(deps, operation, planner),
      beforeStream: planner.beforeStream,
    };
  });
}

function directDef(operation: OperationDef): ToolDef {
  return {
    name: operation.name,
    description: `${operation.description} Runs in the caller's default BOS context.`,
    inputSchema: operation.inputSchema,
    annotations: { readOnlyHint: operation.effect === 'read', openWorldHint: true },
    _meta: { 'bos/effect': operation.effect },
  };
}

/** What a direct tool's checks found: its arguments and the caller's default grant. */
interface DirectPlan {
  validArgs: JsonObject;
  grant: ContextGrant;
}

/**
 * The refusals of a direct tool: no default context, operation not permitted. Its arguments were
 * validated by the runtime against `operation.inputSchema` (the tool's `inputSchema`) before this runs.
 */
async function directPlan(
  deps: BosToolDeps,
  operation: OperationDef,
  args: JsonObject,
  ctx: McpRequestContext,
): Promise<DirectPlan> {
  const validArgs = args;
  // The source catalog does not depend on the grant: a due reload overlaps the grant read (bos-tools.ts).
  const [grant] = await Promise.all([requireDefaultGrant(deps, ctx), deps.refreshSources?.()]);
  if (!grant.operations.includes(operation.name)) {
    throw new ToolError(`${operation.name} is not permitted in the caller's default BOS context.`, {
      code: 'operation_not_permitted',
    });
  }
  return { validArgs, grant };
}

function directHandler(
  deps: BosToolDeps,
  operation: OperationDef,
  planner: CallPlanner<DirectPlan>,
): StreamingToolHandler {
  return async (args, ctx) => {
    const { validArgs, grant } = await planner.plan(args, ctx);
    const result = await runOperation(deps, operation, validArgs, grant, ctx);
    return directResult(result, ctx);
  };
}
