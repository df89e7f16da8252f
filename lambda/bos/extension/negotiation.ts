import type { JsonObject, JsonValue, McpRequestContext } from '../../mcp/index.js';

/** The extension id, as advertised and as opted into (contract §1–§2). */
export const SOURCE_RESULTS_EXTENSION = 'bos/source-results/v1';

/** The public contract document (contract §1 example); servers may advertise another URI. */
export const DEFAULT_CONTRACT_URI = 'https://dfsm.ai/apps/bos/source-results-v1.html';

/** Advertised service limits (contract §1: pageSize bounds event pages, maxConcurrentSources reads). */
export const PAGE_SIZE = 100;
export const MAX_CONCURRENT_SOURCES = 8;

const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/**
 * The object advertised under `capabilities.experimental` in `initialize` and `server/discover`
 * (contract §1). Version 1 has no client setting for either limit.
 */
export function sourceResultsCapability(contractUri = DEFAULT_CONTRACT_URI): Record<string, JsonObject> {
  return {
    [SOURCE_RESULTS_EXTENSION]: {
      pageSize: PAGE_SIZE,
      maxConcurrentSources: MAX_CONCURRENT_SOURCES,
      contractUri,
    },
  };
}

/**
 * Whether this one invocation streams (contract §2). All three signals are required:
 * - an OBJECT at `params._meta["io.modelcontextprotocol/clientCapabilities"].experimental["bos/source-results/v1"]`
 *   ("A Boolean opt-in does not negotiate this extension"; arrays and null are not objects either);
 * - an Accept media type of `text/event-stream` (parsed by the runtime, never substring-matched);
 * - a non-null string or integer JSON-RPC id.
 * Initialization stores no preference: only the request's own `_meta` counts.
 */
export function negotiatesSourceResults(ctx: McpRequestContext): boolean {
  const capabilities = objectAt(ctx.meta, CLIENT_CAPABILITIES_META);
  const experimental = capabilities && objectAt(capabilities, 'experimental');
  const optIn = experimental && objectAt(experimental, SOURCE_RESULTS_EXTENSION);
  return optIn !== undefined && ctx.accepts('text/event-stream') && isStreamableId(ctx.requestId);
}

function isStreamableId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

function objectAt(parent: JsonObject, key: string): JsonObject | undefined {
  if (!Object.hasOwn(parent, key)) return undefined;
  const value: JsonValue | undefined = parent[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}
