/**
 * GET and DELETE in the session-ful shape. GET with `Last-Event-ID` replays the later events of that
 * event's stream (an id unknown to this session → 404, so one stream's id never replays another's);
 * GET without it answers one keepalive comment and ends, or with `initialSessionListenerBudget` stays open
 * with keepalives for that window, bounded by the invocation deadline. DELETE ends the session and its stream state.
 */
import { isClientKey } from '../client-keys.js';
import { describeError } from '../logger.js';
import { listenerBody, replayBody } from '../sse/index.js';
import { checkGetAccept } from '../http/transport-checks.js';
import type { MediaType } from '../http/media-type.js';
import { resolveSession } from './post.js';
import type { SessionfulInput } from './post.js';

/** GET: replay or listener. */
export async function handleGet(input: SessionfulInput, ranges: readonly MediaType[]): Promise<Response> {
  const { rt, respond, headers, scope } = input;
  const rejected = checkGetAccept(ranges, respond);
  if (rejected !== undefined) return rejected;
  const resolved = await resolveSession(input, null);
  if (!resolved.ok) return resolved.response;
  const { sessionId } = resolved.session;
  const lastEventId = headers.get('last-event-id');
  if (lastEventId === null || lastEventId === '') {
    const budget = rt.options.listenerBudget;
    if (budget === undefined) return respond.sse(listenerBody(), sessionId);
    // Bounded by the budget and by the invocation's deadline less the safety buffer.
    const { deadline, signal } = scope.invocation;
    const untilDeadline = deadline === undefined ? Infinity : deadline - budget.safetyBufferMs - rt.clock();
    const body = listenerBody({
      durationMs: Math.min(budget.maxDurationMs, untilDeadline),
      keepaliveMs: rt.options.keepaliveMs,
      ...(signal !== undefined && { signal }),
    });
    return respond.sse(body, sessionId);
  }
  const streamId = isClientKey('eventId', lastEventId)
    ? await rt.streams.streamOf(sessionId, lastEventId)
    : undefined;
  if (streamId === undefined) return respond.plainError(404, 'stream not found');
  const body = replayBody({
    store: rt.streams,
    sessionId,
    lastEventId,
    pollMs: rt.options.replayPollMs,
    keepaliveMs: rt.options.keepaliveMs,
    ...(scope.invocation.deadline !== undefined && { deadline: scope.invocation.deadline }),
    deadlineReserveMs: rt.options.deadlineReserveMs,
    ...(scope.invocation.signal !== undefined && { signal: scope.invocation.signal }),
    clock: rt.clock,
    logger: rt.logger,
  });
  return respond.sse(body, sessionId);
}

/** DELETE: 202 after deleting the session, its streams (best effort) and cancelling its calls. */
export async function handleDelete(input: SessionfulInput): Promise<Response> {
  const { rt, respond } = input;
  const resolved = await resolveSession(input, null);
  if (!resolved.ok) return resolved.response;
  const { sessionId } = resolved.session;
  await rt.sessions.delete(sessionId);
  rt.inFlight.cancelSession(sessionId);
  await rt.streams.deleteSession(sessionId).catch((error: unknown) => {
    rt.logger.warn('stream state delete failed', describeError(error));
  });
  return respond.accepted();
}
