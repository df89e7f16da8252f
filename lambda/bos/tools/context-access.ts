import { InvalidParamsError, ToolError } from '../../mcp/index.js';
import type { McpRequestContext } from '../../mcp/index.js';
import type { ContextGrant } from '../directory/types.js';
import { OPERATIONS } from '../operations/definitions.js';
import type { OperationDef } from '../operations/definitions.js';
import type { BosToolDeps } from './deps.js';

/**
 * The one refusal for a handle that is unknown or not granted: same code, same message, same path, so
 * a caller cannot probe which handles exist (DESIGN §5).
 */
export function contextRefusal(): InvalidParamsError {
  return new InvalidParamsError('context_handle does not name a context available to this caller.');
}

/** The grant behind a handle, re-checked against the directory on every call. */
export async function requireGrant(
  deps: BosToolDeps,
  ctx: McpRequestContext,
  contextHandle: string,
): Promise<ContextGrant> {
  const grant = ctx.principal && (await deps.directory.find(ctx.principal, contextHandle));
  if (grant === undefined) throw contextRefusal();
  return grant;
}

/** The caller's default context, for the direct federated tools. */
export async function requireDefaultGrant(deps: BosToolDeps, ctx: McpRequestContext): Promise<ContextGrant> {
  const grants = ctx.principal ? await deps.directory.contextsFor(ctx.principal) : [];
  const grant = grants.find((g) => g.context.is_default);
  if (grant === undefined) {
    throw new ToolError('No default BOS context is granted to this caller; see bos_list_contexts.', {
      code: 'no_default_context',
    });
  }
  return grant;
}

/** An operation the context permits; any other name gets one refusal whether or not it exists. */
export function requireOperation(grant: ContextGrant, toolName: string): OperationDef {
  const operation = grant.operations.includes(toolName) ? OPERATIONS.get(toolName) : undefined;
  if (operation === undefined) {
    throw new InvalidParamsError('tool_name is not an operation permitted in this context.');
  }
  return operation;
}
