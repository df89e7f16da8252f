/**
 * Web `Response` -> Lambda response stream (DESIGN §3 step 4): the prelude (status, headers, cookies) is decided
 * before the first byte and written once through `awslambda.HttpResponseStream.from`; the body follows with
 * backpressure. Two entry points share the same parts: {@link toStreamingResult} for `@middy/core`'s
 * `streamifyResponse` mode (which calls `HttpResponseStream.from` and `pipeline` itself) and
 * {@link writeResponse} for a plain `awslambda.streamifyResponse` handler.
 */
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../../mcp/index.js';
import { errorFields } from '../config/errors.js';
import { responseBodyReadable } from './response-body.js';

/** Options for {@link toStreamingResult} and {@link writeResponse}. */
export interface StreamResponseOptions {
  /** Called once when the response stream fails or closes before the body ended (client disconnect). */
  onAbort?: (reason: unknown) => void;
  logger?: Logger;
  /**
   * End the response (and, through `onAbort`, its work) when a write makes no progress for this long: the
   * client stopped reading (`MCP_RESPONSE_STALL_MS`, docs/aws.md). 0 or absent: never.
   */
  stallMs?: number;
}

/** The object `@middy/core` v6 expects back in `streamifyResponse` mode: prelude fields plus a body stream. */
export type StreamingResult = awslambda.HttpResponseMetadata & { body: Readable };

/** True when the media type (parameters and case ignored, RFC 9110 §8.3.1) is `text/event-stream`. */
export function isEventStream(contentType: string | null): boolean {
  return contentType?.split(';', 1)[0]?.trim().toLowerCase() === 'text/event-stream';
}

/**
 * The JSON prelude for a response. `Set-Cookie` goes to `cookies` (it cannot be comma-joined); every other
 * field line combines with ", " (RFC 9110 §5.3), which is what `Headers` already did, so `multiValueHeaders`
 * is not needed.
 */
export function responseMetadata(response: Response): awslambda.HttpResponseMetadata {
  // Null prototype: a response header named `__proto__` stays an ordinary field.
  const headers = Object.create(null) as Record<string, string>;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  return { statusCode: response.status, headers, ...(cookies.length > 0 ? { cookies } : {}) };
}

function bodyOf(response: Response, options: StreamResponseOptions): Readable {
  return responseBodyReadable(response.body, {
    sse: isEventStream(response.headers.get('content-type')),
    ...options,
  });
}

/**
 * Converts a `Response` to middy's streaming result. The body always starts with an empty chunk, so the
 * prelude goes out even for a bodyless 202, and a failure after the first byte ends the stream with an SSE
 * JSON-RPC error frame instead of an invocation error.
 */
export function toStreamingResult(response: Response, options: StreamResponseOptions = {}): StreamingResult {
  return { ...responseMetadata(response), body: bodyOf(response, options) };
}

/**
 * Writes a `Response` to the stream a `streamifyResponse` handler receives and resolves when the body has
 * been handed over. A client that went away is not an error of ours: it fires `onAbort` and resolves.
 */
export async function writeResponse(
  response: Response,
  responseStream: Writable,
  options: StreamResponseOptions = {},
): Promise<void> {
  const stream = awslambda.HttpResponseStream.from(responseStream, responseMetadata(response));
  let aborted = false;
  const body = bodyOf(response, {
    ...options,
    onAbort: (reason) => {
      aborted = true;
      options.onAbort?.(reason);
    },
  });
  try {
    await pipeline(body, stream);
  } catch (error) {
    if (!aborted) throw error;
    options.logger?.info('client went away before the response ended', errorFields(error));
  }
}
