import type { FederationResult } from '../../federation/index.js';
import { TextPieces } from '../../mcp/index.js';
import type { JsonObject, McpRequestContext, ToolResult } from '../../mcp/index.js';
import type { PublicContext } from '../directory/types.js';
import { contextObject } from '../extension/source-result-notifier.js';
import { structuredTextPieces } from '../extension/text-content.js';

/** The identity envelope version `bos_execute` wraps results in (contract §5). */
export const IDENTITY_CONTRACT_VERSION = 'bos-identity-mcp/v2';

/**
 * A direct federated tool's result: records at `structuredContent.result`, metadata at
 * `structuredContent.metadata`; any source failure sets `isError` (contract §5).
 */
export function directResult(result: FederationResult, ctx: McpRequestContext): ToolResult {
  const structured = operationResult(result);
  return toolResult(structured, isPartial(result), ctx);
}

/**
 * `bos_execute`'s result: the operation result inside the identity envelope, with the public context
 * at `structuredContent.context` and `_meta["bos/context"]` (contract §5).
 */
export function envelopeResult(
  result: FederationResult,
  context: PublicContext,
  ctx: McpRequestContext,
): ToolResult {
  const publicContext = contextObject(context);
  const structured: JsonObject = {
    contract_version: IDENTITY_CONTRACT_VERSION,
    context: publicContext,
    result: operationResult(result),
  };
  return toolResult(structured, isPartial(result), ctx, {
    'bos/context': publicContext,
  });
}

/** A non-federated tool's result (listing tools): same text/structured pairing, never an error. */
export function plainResult(structured: JsonObject, ctx: McpRequestContext): ToolResult {
  return toolResult(structured, false, ctx);
}

/** The operation result: records and metadata. */
function operationResult(result: FederationResult): JsonObject {
  const { records, metadata } = result;
  // The engine's objects are already plain JSON in wire key order; the cast only widens readonly types.
  return { result: records, metadata } as unknown as JsonObject;
}

function isPartial(result: FederationResult): boolean {
  return result.metadata.completeness === 'partial';
}

/**
 * `content` carries one text block with the JSON of `structuredContent` (contract §5 final frame), so a
 * client that only reads text sees the same result. The text is given in pieces, one per record, so a large
 * result's text is never built as one string on its way into the final SSE frame. In 2026-07-28 requests the result also says
 * `resultType: "complete"` (contract §5; mcp-2026-notes §1.6).
 */
function toolResult(
  structured: JsonObject,
  isError: boolean,
  ctx: McpRequestContext,
  meta?: JsonObject,
): ToolResult {
  const result: ToolResult = {
    content: [{ type: 'text', text: new TextPieces(() => structuredTextPieces(structured)) }],
    structuredContent: structured,
    isError,
  };
  if (meta !== undefined) result._meta = meta;
  if (ctx.shape === 'stateless') result.resultType = 'complete';
  return result;
}
