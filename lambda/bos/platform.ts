import type { SourceAdapter } from '../federation/index.js';
import { createJsonLogger, McpServer } from '../mcp/index.js';
import type { Logger, McpInvocationContext, McpServerOptions } from '../mcp/index.js';
import type { Directory } from './directory/types.js';
import {
  DEFAULT_CONTRACT_URI,
  negotiatesSourceResults,
  SOURCE_RESULTS_EXTENSION,
  sourceResultsCapability,
} from './extension/negotiation.js';
import { createArgumentValidator } from './operations/validate.js';
import { authenticate } from './principals/authenticate.js';
import {
  protectedResourceMetadata,
  protectedResourceMetadataResponse,
  resourceMetadataPaths,
  resourceMetadataUrl,
} from './principals/resource-metadata.js';
import type { TokenVerifier } from './principals/token-verifier.js';
import { bosTools } from './tools/bos-tools.js';
import type { BosToolDeps, OperationTelemetry } from './tools/deps.js';
import { directTools } from './tools/direct-tools.js';

/** Tools that only list what a caller may do: fast, never worth a task. */
const listingTools: ReadonlySet<string> = new Set(['bos_list_contexts', 'bos_list_tools']);

/** Options of {@link createBosPlatform}. */
export interface BosPlatformOptions {
  directory: Directory;
  /** Source id → adapter, built by the composition root (`lambda/bos` never imports `lambda/sources`). */
  sources: ReadonlyMap<string, SourceAdapter>;
  /**
   * Called before each federated operation reads `sources` (never rejects): the composition root's catalog
   * re-reads table-backed source definitions here, so only calls that read sources wait for it, never
   * `initialize` or a listing.
   */
  refreshSources?: () => Promise<void>;
  verifier: TokenVerifier;
  /** Public URL of the platform endpoint (`MCP_ENDPOINT`); resource metadata derives from it. */
  endpoint: string;
  /** Issuers advertised in the resource metadata. @default [verifier.issuer] when the verifier names one */
  authorizationServers?: readonly string[];
  /** Advertised `contractUri`. @default 'https://dfsm.ai/apps/bos/source-results-v1.html' */
  contractUri?: string;
  /** `BOS_DEADLINE_RESERVE_MS`: time kept back from the invocation deadline for the final frame. @default 1000 */
  deadlineReserveMs?: number;
  /** Budget of one federated operation before the invocation deadline caps it. @default 30000 */
  operationTimeoutMs?: number;
  /** Per-source timeout when neither the adapter nor the context sets one. @default 10000 */
  sourceTimeoutMs?: number;
  logger?: Logger;
  /** Receives each federated operation's outcome and per-source statistics (metrics). @default none */
  telemetry?: OperationTelemetry;
  /**
   * Source of the `observed_at` timestamps in result metadata (deterministic tests). Deadlines always
   * use real time (`Date.now`), as `ctx.deadline` does.
   * @default serverOptions.clock ?? Date.now
   */
  clock?: () => number;
  /** The runtime's options; `experimental` gains the `bos/source-results/v1` advertisement. */
  serverOptions: McpServerOptions;
}

/** The platform: the MCP server with the BOS tools, and the authenticated entry point. */
export interface BosPlatform {
  server: McpServer;
  /**
   * Serves the RFC 9728 metadata routes without authentication, authenticates everything else, then
   * delegates to `server.handle` with the caller's principal.
   */
  handle(request: Request, ctx?: McpInvocationContext): Promise<Response>;
}

/** Builds the BOS platform app (DESIGN §5). */
export function createBosPlatform(options: BosPlatformOptions): BosPlatform {
  const logger =
    options.logger ?? options.serverOptions.logger ?? createJsonLogger({ base: { component: 'bos' } });
  const server = new McpServer({
    ...options.serverOptions,
    logger,
    experimental: {
      ...options.serverOptions.experimental,
      ...sourceResultsCapability(options.contractUri ?? DEFAULT_CONTRACT_URI),
    },
  });
  const deps: BosToolDeps = {
    directory: options.directory,
    sources: options.sources,
    ...(options.refreshSources === undefined ? {} : { refreshSources: options.refreshSources }),
    validate: createArgumentValidator(),
    deadlineReserveMs: options.deadlineReserveMs ?? 1000,
    operationTimeoutMs: options.operationTimeoutMs ?? 30_000,
    sourceTimeoutMs: options.sourceTimeoutMs ?? 10_000,
    logger,
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    clock: options.clock ?? options.serverOptions.clock ?? Date.now,
  };
  // The runtime's own tool timeout must not cut an operation short of writing its final frame.
  const timeoutMs = deps.operationTimeoutMs + deps.deadlineReserveMs + 5_000;
  for (const tool of [...bosTools(deps), ...directTools(deps)]) {
    // Federated reads may also run as tasks (docs/tasks.md); the listing tools answer at once.
    const def = listingTools.has(tool.def.name)
      ? tool.def
      : { ...tool.def, execution: { taskSupport: 'optional' as const } };
    server.registerStreamingTool(def, tool.handler, {
      shouldStream: negotiatesSourceResults,
      leadingComment: SOURCE_RESULTS_EXTENSION,
      // bos/source-results/v1 has no resumability: "Disconnect cancels outstanding work".
      cancelOnDisconnect: true,
      beforeStream: tool.beforeStream,
      // The hooks read only the caller's grant and the arguments, so a session-ful call reads its grant
      // beside its session instead of after it (one DynamoDB round trip less before the first page).
      sessionIndependentPreflight: true,
      timeoutMs,
    });
  }

  const metadataUrl = resourceMetadataUrl(options.endpoint);
  const metadataPaths = new Set(resourceMetadataPaths(options.endpoint));
  const metadata = protectedResourceMetadata(
    options.endpoint,
    options.authorizationServers ?? (options.verifier.issuer === undefined ? [] : [options.verifier.issuer]),
  );

  return {
    server,
    async handle(request, ctx = {}) {
      const path = new URL(request.url).pathname.replace(/\/+$/, '');
      if (request.method === 'GET' && metadataPaths.has(path))
        return protectedResourceMetadataResponse(metadata);
      const outcome = await authenticate(request, options.verifier, { metadataUrl });
      if (!outcome.ok) {
        logger.info('bos.auth.refused', { reason: outcome.error.code, status: outcome.response.status });
        return outcome.response;
      }
      return server.handle(request, { ...ctx, principal: outcome.principal });
    },
  };
}
