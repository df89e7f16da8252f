/**
 * The notification side of a streaming tool's context, shared by both protocol shapes: progress tied to the
 * request's token, log messages above a threshold, arbitrary notifications and comments, backpressure.
 */
import { loggingLevels as levels } from './logging-levels.js';
import { notificationJson } from '../json/json-rpc.js';
import type { JsonObject, JsonValue, LoggingLevel, StreamingToolContext } from '../types/index.js';
import type { SseStream } from './stream.js';

/** `params._meta.progressToken` when it is valid: MCP says it "MUST be a string or integer". */
export function progressTokenOf(meta: JsonObject): string | number | undefined {
  const token = meta.progressToken;
  return typeof token === 'string' || (typeof token === 'number' && Number.isInteger(token))
    ? token
    : undefined;
}

/** Severity rank of a level; `Infinity` for none (nothing is logged). */
export function logThreshold(level: LoggingLevel | undefined): number {
  return level === undefined ? Infinity : levels.indexOf(level);
}

/** Emitters that write one JSON-RPC notification per `event: message` frame on `sse`. */
export function toolEmitters(
  sse: SseStream,
  meta: JsonObject,
  threshold: number,
): Pick<StreamingToolContext, 'progress' | 'log' | 'notify' | 'comment' | 'ready'> {
  const token = progressTokenOf(meta);
  return {
    progress(progress: number, total?: number, message?: string): void {
      if (token === undefined) return;
      // Keys in alphabetical order, as fixture sse-resumable-replay.json pins the exact data string.
      const params: JsonObject = {};
      if (message !== undefined) params.message = message;
      params.progress = progress;
      params.progressToken = token;
      if (total !== undefined) params.total = total;
      sse.sendStringified(notificationJson('notifications/progress', params));
    },
    log(level: LoggingLevel, data: JsonValue, logger?: string): void {
      if (levels.indexOf(level) < threshold) return;
      const params: JsonObject = logger === undefined ? { data, level } : { data, level, logger };
      sse.sendStringified(notificationJson('notifications/message', params));
    },
    notify(notification: { method: string; params?: JsonObject }): void {
      sse.sendStringified(notificationJson(notification.method, notification.params));
    },
    comment(text: string): void {
      sse.comment(text);
    },
    ready: () => sse.ready(),
  };
}
