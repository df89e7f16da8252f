/**
 * `tasks/result` (2025-11-25) answered as SSE when the client accepts `text/event-stream`: while the call
 * waits for its task to end, the task's status goes out as `notifications/tasks/status` (once when the
 * stream opens, then on every change of `status` or `statusMessage`), and the result or its error ends the
 * stream. The stream is not resumable (nothing is stored, no event ids): a client that loses it calls
 * `tasks/result` again. Clients that accept only JSON get the plain blocking answer (`methods.ts`).
 */
import { McpError, RequestCancelledError, toWireError } from '../errors.js';
import type { Responder } from '../http/http-responses.js';
import { errorJson, notificationJson, resultJson } from '../json/json-rpc.js';
import { describeError } from '../logger.js';
import type { Runtime } from '../runtime.js';
import { SseStream } from '../sse/index.js';
import { startTaskResult, taskResult, taskStatusNotification, waitTerminal } from './tasks.js';
import { terminalStatuses } from '../tasks/task-store.js';
import type { TaskRecord } from '../types/tasks.js';
import type { JsonRpcRequest, SessionRecord } from '../types/index.js';
import { requestContext } from './context.js';
import type { RequestScope } from '../methods/index.js';

/** The version whose tasks carry status notifications on the request's own stream. */
const statusNotificationVersion = '2025-11-25';

/** A buffered JSON answer, or a ready SSE response. */
export type TaskResultAnswer = { kind: 'json'; body: string } | { kind: 'sse'; response: Response };

/**
 * `tasks/result` as a stream, or undefined when this request is not answered as one (no task runtime, another
 * protocol version, inside a batch, or a client that does not accept SSE): the caller then answers it as
 * any other method. Failures before the stream opens (no `taskId`, an unknown or foreign task) throw, and
 * become the same JSON-RPC errors as on the JSON path.
 */
export async function streamTaskResult(
  rt: Runtime,
  scope: RequestScope,
  respond: Responder,
  session: SessionRecord,
  request: JsonRpcRequest,
  allowStream: boolean,
): Promise<TaskResultAnswer | undefined> {
  const tasks = rt.tasks;
  if (tasks === undefined || !allowStream || !scope.accepts('text/event-stream')) return undefined;
  const controller = new AbortController();
  const ctx = requestContext(scope, session, request.id, request.params, controller.signal);
  if (ctx.protocolVersion !== statusNotificationVersion) return undefined;
  const start = await startTaskResult(tasks, request, ctx);
  // Nothing to wait for: the answer is the result itself, without a stream around it.
  if (terminalStatuses.has(start.record.status)) {
    return { kind: 'json', body: resultJson(request.id, taskResult(start.record)) };
  }

  const sse = new SseStream({
    keepaliveMs: rt.options.keepaliveMs,
    maxEventBytes: rt.options.maxStreamEventBytes,
    logger: rt.logger,
    onCancel: () => controller.abort(new RequestCancelledError('client_disconnected')),
  });
  // A client that stopped reading holds the invocation: stop waiting for it as well.
  const invocationSignal = scope.invocation.signal;
  const follow = (): void => controller.abort(invocationSignal?.reason);
  invocationSignal?.addEventListener('abort', follow, { once: true });
  if (invocationSignal?.aborted === true) follow();

  let last: Pick<TaskRecord, 'status' | 'statusMessage'> | undefined;
  const announce = (record: TaskRecord): void => {
    if (last?.status === record.status && last.statusMessage === record.statusMessage) return;
    last = { status: record.status, statusMessage: record.statusMessage };
    sse.sendStringified(notificationJson('notifications/tasks/status', taskStatusNotification(record)));
  };
  announce(start.record);
  const { taskId } = start.record;
  const work = waitTerminal(rt, tasks, start.scope, taskId, ctx.deadline, announce, controller.signal)
    .then((record) => resultJson(request.id, taskResult(record)))
    .catch((error: unknown) => errorJson(request.id, streamError(rt, error, controller.signal)))
    .then((final) => sse.finish(final, request.id))
    .finally(() => invocationSignal?.removeEventListener('abort', follow));
  rt.track(work);
  return { kind: 'sse', response: respond.sse(sse.body, session.sessionId) };
}

/**
 * Inside a started stream every failure is a JSON-RPC error frame. A wait stopped because the client went
 * away needs no log (nobody reads the frame); anything unexpected, a store outage included, is logged.
 */
function streamError(rt: Runtime, error: unknown, signal: AbortSignal): McpError {
  if (signal.aborted) return toWireError(signal.reason);
  if (!(error instanceof McpError)) rt.logger.error('tasks/result stream failed', describeError(error));
  return toWireError(error);
}
