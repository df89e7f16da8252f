/**
 * Incremental Server-Sent Events decoding for `bos/source-results/v1` (contract §3, checklist item 4):
 * bytes may be split anywhere by the network — inside a multi-byte UTF-8 character, inside a line,
 * inside the blank-line separator — and the events produced must not depend on where.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One dispatched SSE event with non-empty data. */
export interface SseEvent {
  /** The `event:` field; the SSE default `message` when absent. */
  event: string;
  /** All `data:` lines of the event joined with `\n` (the SSE rules). */
  data: string;
  /** The `id:` field, if the server sent one (MCP priming events carry one). */
  id?: string;
}

/** Counters a consumer can print for diagnostics; none of them carries result information. */
export interface SseDiagnostics {
  /** Comment lines (`: keepalive`, `: bos/source-results/v1` …); contract §3: they carry no results. */
  comments: number;
  /** Events whose data was empty, such as the MCP priming event (an `id` with empty `data`). */
  emptyEvents: number;
  /** Events dispatched to the consumer. */
  events: number;
  /** Bytes fed in. */
  bytes: number;
  /** The last `retry:` value, in milliseconds, if any. */
  retryMs?: number;
}

/** Callbacks of {@link SseDecoder}. */
export interface SseDecoderHandlers {
  onEvent: (event: SseEvent) => void;
  onComment?: (comment: string) => void;
  onRetry?: (retryMs: number) => void;
  /**
   * Every event id, in order, including the priming event's (whose empty data is never dispatched): the id to
   * resume after (`Last-Event-ID`) is the last one seen.
   */
  onId?: (id: string) => void;
}

/**
 * Push-style decoder: feed byte chunks as they arrive, call {@link SseDecoder.end} at EOF.
 * An event still missing its terminating blank line at EOF is discarded, as the SSE rules require:
 * an unterminated frame is not a delivered frame.
 */
export class SseDecoder {
  readonly diagnostics: SseDiagnostics = { comments: 0, emptyEvents: 0, events: 0, bytes: 0 };
  // `stream: true` keeps a partial UTF-8 sequence until its remaining bytes arrive.
  readonly #text = new TextDecoder('utf-8');
  readonly #parser: EventSourceParser;
  #endsWithCr = false;

  constructor(handlers: SseDecoderHandlers) {
    this.#parser = createParser({
      onEvent: (message) => {
        if (message.id !== undefined) handlers.onId?.(message.id);
        // The priming event of MCP Streamable HTTP has empty data and carries no JSON-RPC message.
        if (message.data === '') {
          this.diagnostics.emptyEvents += 1;
          return;
        }
        this.diagnostics.events += 1;
        const event: SseEvent = { event: message.event ?? 'message', data: message.data };
        if (message.id !== undefined) event.id = message.id;
        handlers.onEvent(event);
      },
      onComment: (comment) => {
        this.diagnostics.comments += 1;
        handlers.onComment?.(comment);
      },
      onRetry: (retryMs) => {
        this.diagnostics.retryMs = retryMs;
        handlers.onRetry?.(retryMs);
      },
    });
  }

  /** Feeds one network chunk. */
  push(chunk: Uint8Array): void {
    this.diagnostics.bytes += chunk.byteLength;
    this.#feed(this.#text.decode(chunk, { stream: true }));
  }

  /** Flushes the UTF-8 decoder at EOF; incomplete events are dropped. */
  end(): void {
    this.#feed(this.#text.decode());
    // A CR is a complete line ending, but the parser holds it back waiting for a possible LF.
    // At EOF none can come; an LF now makes `CR LF` — still exactly one line ending.
    if (this.#endsWithCr) this.#parser.feed('\n');
  }

  #feed(text: string): void {
    if (text === '') return;
    this.#endsWithCr = text.endsWith('\r');
    this.#parser.feed(text);
  }
}

/**
 * Reads a byte stream and yields its SSE events in order. A read failure (network error, abort)
 * is thrown from the iterator after the events decoded so far have been yielded.
 */
export async function* readSseEvents(
  stream: ReadableStream<Uint8Array>,
  options: Omit<SseDecoderHandlers, 'onEvent'> & { diagnostics?: (d: SseDiagnostics) => void } = {},
): AsyncGenerator<SseEvent, SseDiagnostics, undefined> {
  const queue: SseEvent[] = [];
  const handlers: SseDecoderHandlers = { onEvent: (event) => queue.push(event) };
  if (options.onComment) handlers.onComment = options.onComment;
  if (options.onRetry) handlers.onRetry = options.onRetry;
  if (options.onId) handlers.onId = options.onId;
  const decoder = new SseDecoder(handlers);
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      decoder.push(value);
      while (queue.length > 0) yield queue.shift() as SseEvent;
    }
    decoder.end();
    while (queue.length > 0) yield queue.shift() as SseEvent;
    return decoder.diagnostics;
  } finally {
    options.diagnostics?.(decoder.diagnostics);
    // Stopping early (the final frame arrived, or the consumer broke out) releases the connection.
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
