/**
 * Consumer library for the BOS platform endpoint: an MCP HTTP client for both protocol shapes and the
 * `bos/source-results/v1` stream consumer. Self-contained: fetch and eventsource-parser only.
 */
export { McpClientError, McpHttpStatusError, McpProtocolError, McpRpcError } from './errors.js';
export { SseDecoder, readSseEvents } from './sse.js';
export type { SseDecoderHandlers, SseDiagnostics, SseEvent } from './sse.js';
export { SOURCE_RESULT_METHOD, SourceResultsTracker } from './source-tracker.js';
export { isJsonRpcResponse, readFinalResponse } from './final-result.js';
export type { FinalFields } from './final-result.js';
export { consumeSourceResults, iterateSourceResults, mediaTypeOf } from './source-results.js';
export type { ResumeAttempt, ResumeOptions } from './resume.js';
export type { ConsumeOptions } from './source-results.js';
export { SOURCE_ERROR_CODES } from './source-results-types.js';
export type {
  ConfirmedOutcome,
  ConsumeDiagnostics,
  ObservedSummary,
  PageOrigin,
  ProtocolViolation,
  ProvisionalPage,
  PublicContext,
  RequestId,
  ResultPath,
  SourceErrorCode,
  SourceProgress,
  SourceRef,
  SourceResultsEvent,
  SourceResultsHandlers,
  SourceResultsOutcome,
  SourceTerminal,
  UnconfirmedOutcome,
  ViolationKind,
} from './source-results-types.js';
export {
  SESSIONFUL_PROTOCOL_VERSION,
  SOURCE_RESULTS_EXTENSION,
  STATELESS_PROTOCOL_VERSION,
  decodeMcpHeaderValue,
  encodeMcpHeaderValue,
  mcpNameOf,
  withSourceResultsOptIn,
} from './mcp-headers.js';
export { McpHttpClient } from './mcp-http.js';
export type {
  CallToolOptions,
  DiscoveryInfo,
  McpHttpClientOptions,
  SourceResultsCapability,
} from './mcp-http.js';
export { DEFAULT_DEV_USER, readDevToken } from './dev-tokens.js';
export { runCli } from './cli-run.js';
export type { CliEnvironment } from './cli-run.js';
