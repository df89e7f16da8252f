/**
 * The Lambda edge: the REST v1 proxy event becomes a web `Request` (`rest-event.ts`), the runtime's `Response`
 * is written through Lambda response streaming (`response-stream.ts`), the kinds of event the one function
 * receives are told apart (`event-kind.ts`), and the function invokes itself for task rounds
 * (`lambda-task-launcher.ts`, `task-worker-event.ts`). Adapters only: no protocol behaviour of their own.
 */
export { RestEventError } from './errors.js';
export type { RestEventErrorCode } from './errors.js';
export {
  internalErrorResponse,
  jsonRpcErrorResponse,
  restEventErrorResponse,
  sseInternalErrorFrame,
} from './error-response.js';
export { eventKind, streamCompletionFields } from './event-kind.js';
export type { EventKind, StreamCompletion } from './event-kind.js';
export { createInvocation } from './invocation.js';
export type { Invocation, InvocationOptions } from './invocation.js';
export { decodeBase64Strict, parseRestEvent, restEventToRequest, toRequest } from './rest-event.js';
export type { RestEventParts, RestProxyEvent, ToRequestOptions } from './rest-event.js';
export { isMcpRoute, matchResource } from './rest-path.js';
export { isEventStream, responseMetadata, toStreamingResult, writeResponse } from './response-stream.js';
export type { StreamingResult, StreamResponseOptions } from './response-stream.js';
export { LambdaTaskLauncher, TaskLaunchError } from './lambda-task-launcher.js';
export type { LambdaTaskLauncherOptions } from './lambda-task-launcher.js';
export { CACHE_SYNC_EVENT_KIND, cacheSyncEvent, cacheSyncRequest } from './cache-sync-event.js';
export type { CacheSyncEvent, CacheSyncRequest } from './cache-sync-event.js';
export { TASK_WORKER_EVENT_KIND, taskWorkerEvent, taskWorkerRef } from './task-worker-event.js';
export type { TaskWorkerEvent } from './task-worker-event.js';
