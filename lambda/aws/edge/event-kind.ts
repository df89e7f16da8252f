/**
 * Which kind of invocation a Lambda event is. The platform function is invoked by API Gateway with a REST v1
 * proxy event, and, after every streamed response, once more with a small non-proxy "completion" payload
 * (`{"requestId": "…", "invokeCompletionStatus": "Success"}`, or `"Failure"` with an `errorCode`). AWS does not
 * document that second payload; its shape is what deployments of this integration observe (docs/aws.md).
 * The function also invokes itself asynchronously to run a task round (`task-worker-event.ts`), and a schedule
 * invokes it to sync the source cache (`cache-sync-event.ts`). Keeping the
 * decision in one small function lets every entry route on it the same way.
 */
import { CACHE_SYNC_EVENT_KIND } from './cache-sync-event.js';
import { TASK_WORKER_EVENT_KIND } from './task-worker-event.js';

/**
 * A REST v1 proxy event (anything carrying `httpMethod`), API Gateway's completion notice, a task round the
 * function sent itself, or none of them.
 */
export type EventKind = 'rest' | 'stream-completion' | 'task-round' | 'cache-sync' | 'unrecognised';

/** The fields a streaming completion invocation carries, as far as they are known. */
export interface StreamCompletion {
  requestId?: string;
  invokeCompletionStatus: string;
  errorCode?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Classifies an invocation payload. A proxy event wins whenever `httpMethod` is present, so a request can never
 * be mistaken for anything else; a completion is an object with a string `invokeCompletionStatus`, a task round
 * one whose `kind` is the worker event's (its other fields are checked by `taskWorkerRef`), a cache sync one
 * whose `kind` is the sync event's (checked by `cacheSyncRequest`). Everything else is
 * `unrecognised` (the REST path then answers it as an invalid event).
 */
export function eventKind(event: unknown): EventKind {
  if (!isRecord(event)) return 'unrecognised';
  if (Object.hasOwn(event, 'httpMethod')) return 'rest';
  if (typeof event['invokeCompletionStatus'] === 'string') return 'stream-completion';
  if (event['kind'] === TASK_WORKER_EVENT_KIND) return 'task-round';
  if (event['kind'] === CACHE_SYNC_EVENT_KIND) return 'cache-sync';
  return 'unrecognised';
}

/** The completion notice's fields, only the string ones (for a debug line; nothing else reads them). */
export function streamCompletionFields(event: Record<string, unknown>): StreamCompletion {
  const pick = (name: string): string | undefined =>
    typeof event[name] === 'string' ? event[name] : undefined;
  const requestId = pick('requestId');
  const errorCode = pick('errorCode');
  return {
    invokeCompletionStatus: pick('invokeCompletionStatus') ?? '',
    ...(requestId === undefined ? {} : { requestId }),
    ...(errorCode === undefined ? {} : { errorCode }),
  };
}
