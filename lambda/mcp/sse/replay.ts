/**
 * GET bodies of the session-ful shape: replay after `Last-Event-ID`, and the short listener.
 *
 * Replay is pull-based: the store is read only when the consumer wants more bytes. While the stream is
 * still open (its tool call runs in this or another instance) the store is polled until the stream closes,
 * the client goes away, or the invocation deadline nears; a Lambda must end its response before its
 * deadline, and the client resumes with the last id it saw (reference-runtime-lessons §5.12).
 */
import { describeError } from '../logger.js';
import type { Logger, StreamStore } from '../types/index.js';
import { commentFrame, encodeFrame, storedEventFrame } from './writer.js';

/** Options of `replayBody`. */
export interface ReplayOptions {
  store: StreamStore;
  sessionId: string;
  lastEventId: string;
  pollMs: number;
  keepaliveMs: number;
  deadline?: number;
  deadlineReserveMs: number;
  signal?: AbortSignal;
  clock: () => number;
  logger: Logger;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The body replaying the events after `lastEventId` on that event's stream. */
export function replayBody(options: ReplayOptions): ReadableStream<Uint8Array> {
  let cursor = options.lastEventId;
  let lastWrite = options.clock();
  const stopAt = options.deadline === undefined ? Infinity : options.deadline - options.deadlineReserveMs;
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        for (;;) {
          const { events, closed } = await options.store.after(options.sessionId, cursor);
          if (events.length > 0) {
            for (const event of events)
              controller.enqueue(encodeFrame(storedEventFrame(event.eventId, event.data)));
            cursor = events[events.length - 1]?.eventId ?? cursor;
            lastWrite = options.clock();
            if (!closed) return;
          }
          if (closed || options.signal?.aborted === true || options.clock() + options.pollMs >= stopAt) {
            controller.close();
            return;
          }
          // 0 turns keepalives off, as on a live stream; read as "every poll" it would spin without sleeping.
          if (options.keepaliveMs > 0 && options.clock() - lastWrite >= options.keepaliveMs) {
            controller.enqueue(encodeFrame(commentFrame('keepalive')));
            lastWrite = options.clock();
            return;
          }
          await sleep(options.pollMs, options.signal);
        }
      } catch (error) {
        // Headers are out: end the body; the client resumes from the last id it received.
        options.logger.warn('stream replay failed', describeError(error));
        controller.close();
      }
    },
  });
}

/** How long the GET listener without `Last-Event-ID` stays open (`initialSessionListenerBudget`). */
export interface ListenerOptions {
  /** Open time, already bounded by the budget and the deadline; 0 or less = one keepalive, then end. */
  durationMs: number;
  keepaliveMs: number;
  /** The client went away: end at once. */
  signal?: AbortSignal;
}

/**
 * The GET listener without `Last-Event-ID`: one keepalive comment, then end (bounded Lambda use); with an
 * opt-in budget, open for `durationMs` with keepalives, then end without a final event or comment
 * (mcp-method-surface "Keeping the initial keepalive path open for a bounded window on Lambda").
 */
export function listenerBody(options?: ListenerOptions): ReadableStream<Uint8Array> {
  const timers: ReturnType<typeof setTimeout>[] = [];
  let stop = (): void => undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encodeFrame(commentFrame('keepalive')));
      if (options === undefined || options.durationMs <= 0 || options.signal?.aborted === true) {
        controller.close();
        return;
      }
      const { signal } = options;
      stop = () => {
        for (const timer of timers) clearTimeout(timer);
        signal?.removeEventListener('abort', end);
      };
      function end(): void {
        stop();
        controller.close();
      }
      signal?.addEventListener('abort', end, { once: true });
      timers.push(setTimeout(end, options.durationMs));
      // Keepalives only while the client keeps up: a full queue means nobody is reading.
      const keepalive = setInterval(
        () => {
          if ((controller.desiredSize ?? 0) > 0) controller.enqueue(encodeFrame(commentFrame('keepalive')));
        },
        Math.max(1, options.keepaliveMs),
      );
      timers.push(keepalive);
    },
    cancel() {
      stop();
    },
  });
}
