/**
 * Public surface of the MCP runtime (`lambda/mcp`). Web `Request` → web `Response`; no AWS, no sockets, no BOS
 * knowledge. Store ports are interfaces here; DynamoDB implementations live in
 * `lambda/aws`.
 */
export type * from './types/index.js';
export { McpServer } from './server.js';
export {
  InvalidParamsError,
  JsonRpcCode,
  McpError,
  RequestCancelledError,
  SafeMessage,
  SessionStoreUnavailableError,
  StoreUnavailableError,
  outageOf,
  ToolError,
  ToolTimeoutError,
  toWireError,
} from './errors.js';
export { wrapTool } from './tools/tool-lifecycle.js';
export { compileJsonSchema } from './registries/schema-validator.js';
export type { WrapToolOptions } from './tools/tool-lifecycle.js';
export { InMemorySessionStore } from './stores/memory-session-store.js';
export type { InMemorySessionStoreOptions } from './stores/memory-session-store.js';
export { InMemoryStreamStore } from './stores/memory-stream-store.js';
export type { InMemoryStreamStoreOptions } from './stores/memory-stream-store.js';
export { InMemoryClientReplyStore } from './stores/memory-client-reply-store.js';
export type { InMemoryClientReplyStoreOptions } from './stores/memory-client-reply-store.js';
export { InMemoryCancelStore } from './stores/memory-cancel-store.js';
export type { InMemoryCancelStoreOptions } from './stores/memory-cancel-store.js';
export { createJsonLogger, silentLogger } from './logger.js';
export type { JsonLoggerOptions } from './logger.js';
export {
  detectHttpShape,
  detectShape,
  sessionfulVersions,
  statelessVersion,
  supportedVersions,
} from './http/shape.js';
export type { DetectedShape, HeaderValues, ShapeDecision } from './http/shape.js';
export { InMemoryRequestStateStore } from './stores/memory-request-state-store.js';
export type { InMemoryRequestStateStoreOptions } from './stores/memory-request-state-store.js';
export { SessionKey } from './sessions/session-manager.js';
export { acceptsMediaType, parseAccept, parseMediaType } from './http/media-type.js';
export type { MediaType } from './http/media-type.js';
export { commentFrame, eventFrame } from './sse/index.js';
export { jsonPieces, TextPieces } from './json/json-pieces.js';
export { randomId } from './ids.js';
export * from './tasks/index.js';
export { clientKeyRules, isClientKey } from './client-keys.js';
export type { ClientKeyKind, ClientKeyRule } from './client-keys.js';
export { InMemoryRateCounterStore, RateLimiter } from './rate-limit/index.js';
export type { InMemoryRateCounterStoreOptions, RateDecision } from './rate-limit/index.js';
