/**
 * Response builders (web `Response`s). Every response carries `x-request-id` when the adapter supplied one, so
 * the fixture vectors (which pin it) and operators correlating logs see the same id. JSON bodies use exactly
 * `application/json` (fixtures pin the header value).
 */
import type { McpError } from '../errors.js';
import { errorJson } from '../json/json-rpc.js';
import type { JsonRpcId } from '../types/index.js';

export type HeaderMap = Record<string, string>;

/** Builds the responses of one HTTP request. */
export class Responder {
  readonly #requestId: string | undefined;

  constructor(requestId: string | undefined) {
    this.#requestId = requestId;
  }

  /** Base headers plus `extra`. */
  headers(extra?: HeaderMap): HeaderMap {
    const headers: HeaderMap = this.#requestId === undefined ? {} : { 'x-request-id': this.#requestId };
    return extra === undefined ? headers : Object.assign(headers, extra);
  }

  /** A JSON response with a serialised body. */
  json(status: number, body: string, extra?: HeaderMap): Response {
    const headers = this.headers(extra);
    headers['content-type'] = 'application/json';
    return new Response(body, { status, headers });
  }

  /** A JSON-RPC error envelope. */
  rpcError(status: number, id: JsonRpcId | null, error: McpError, extra?: HeaderMap): Response {
    return this.json(status, errorJson(id, error), extra);
  }

  /**
   * A non-JSON-RPC error body `{"error": message}`; fixtures pin this shape for 404 "session not found"
   * and 405 "method not allowed".
   */
  plainError(status: number, message: string, extra?: HeaderMap): Response {
    return this.json(status, JSON.stringify({ error: message }), extra);
  }

  /** 202 Accepted with no body (notifications, client responses, DELETE). */
  accepted(extra?: HeaderMap): Response {
    return new Response(null, { status: 202, headers: this.headers(extra) });
  }

  /**
   * 200 `text/event-stream` with the headers SSE needs through proxies and API Gateway. `sessionId` is
   * absent in the stateless shape (2026-07-28 has no sessions).
   */
  sse(body: ReadableStream<Uint8Array>, sessionId?: string): Response {
    const headers = this.headers({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      // Pinned by fixture sse-resumable-replay.json; harmless where a proxy strips hop-by-hop headers.
      connection: 'keep-alive',
      // Stops nginx-style proxies from buffering the stream (2026-07-28 SH "SHOULD send").
      'x-accel-buffering': 'no',
    });
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    return new Response(body, { status: 200, headers });
  }
}
