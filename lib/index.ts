export { BosMcpStack, DEFAULT_ALLOWED_ORIGINS, DEFAULT_THROTTLING } from './bos-mcp-stack.js';
export type { BosMcpStackProps, SourceCacheStackProps } from './bos-mcp-stack.js';
export * from './constructs/index.js';
export { PLACEHOLDER_AUTH_HOST, stackPropsFromContext } from './context.js';
export type { ContextReader, ContextStackProps } from './context.js';
export { DEFAULT_DEADLINE_RESERVE_MS, DEFAULT_TTL_MINUTES, platformEnvironment } from './environment.js';
export type { AuthProps, ListenerBudgetProps, PlatformEnvironmentInput, TtlMinutes } from './environment.js';
export { StackConfigError } from './errors.js';
export { DEFAULT_RATE_LIMITS, rateLimitEnvironment, rateLimitsForStage } from './rate-limits.js';
export type { RateLimitProps } from './rate-limits.js';
export type { StackConfigErrorCode } from './errors.js';
export { PLATFORM_HANDLER_ENTRY, PROJECT_ROOT, stackNameForStage } from './project.js';
export {
  MCP_EXPOSED_HEADERS,
  MCP_METHODS,
  MCP_PATH,
  MCP_REQUEST_HEADERS,
  WELL_KNOWN_METADATA_PATH,
  WELL_KNOWN_METADATA_ROOT,
} from './routes.js';
export {
  DEV_STAGE,
  assertStageName,
  isDisposableStage,
  logRetentionForStage,
  removalPolicyForStage,
} from './stage-policy.js';
export * from './bundling/options.js';
export * from './table-schemas.js';
