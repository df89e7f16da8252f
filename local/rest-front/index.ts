/**
 * Local API Gateway REST v1 front with STREAM-mode Lambda proxy integrations.
 */
export {
  MAX_PRELUDE_BYTES,
  PreludeError,
  parsePreludeMetadata,
  readPrelude,
  type Prelude,
} from './prelude.js';
export { buildProxyEvent, type ProxyEventContext } from './proxy-event.js';
export {
  functionSettled,
  relayPayload,
  shapedDelayMs,
  type ClientLossMode,
  type RelayLimits,
  type RelayOutcome,
  type StreamShaping,
} from './relay.js';
export { completionNotice, sendCompletion, type CompletionRecord } from './completion.js';
export { PLATFORM_ROUTES, matchRoute, type RestRoute, type RouteMatch } from './routes.js';
export { startRestFront, type FunctionInvoker, type RestFront, type RestFrontOptions } from './server.js';
