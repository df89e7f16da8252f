/**
 * Reading a finished `text/event-stream` body in tests, on `eventsource-parser` (the WHATWG parsing rules):
 * events and comments in order, plus anything the parser found malformed, so strict readers can refuse it.
 */
import { createParser } from 'eventsource-parser';

/** One dispatched event: `event` is absent when the frame named none (a `message` for EventSource). */
export interface SseEvent {
  readonly id?: string;
  readonly event?: string;
  readonly data: string;
  /** The reconnection time the frame set (`retry:`), in ms. */
  readonly retry?: number;
}

/** An event or a comment line, in stream order. */
export type SseItem =
  ({ readonly kind: 'event' } & SseEvent) | { readonly kind: 'comment'; readonly text: string };

/** Everything in a body: items in order, and each line the parser could not read as SSE. */
export interface ParsedSse {
  readonly items: SseItem[];
  readonly problems: string[];
}

/** Parses a whole SSE body (see the module comment). A block with no `data` line dispatches no event. */
export function parseSseBody(text: string): ParsedSse {
  const items: SseItem[] = [];
  const problems: string[] = [];
  let retry: number | undefined;
  const parser = createParser({
    onEvent: ({ id, event, data }) => {
      items.push({
        kind: 'event',
        ...(id === undefined ? {} : { id }),
        ...(event === undefined ? {} : { event }),
        data,
        ...(retry === undefined ? {} : { retry }),
      });
      retry = undefined;
    },
    onRetry: (ms) => (retry = ms),
    onComment: (comment) => items.push({ kind: 'comment', text: comment.trim() }),
    onError: (error) => problems.push(error.message),
  });
  parser.feed(text);
  return { items, problems };
}

/** The events of an SSE body, in order. */
export function sseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const item of parseSseBody(text).items) if (item.kind === 'event') events.push(item);
  return events;
}

/** The JSON payloads of an SSE body's events, skipping events with empty data (replay priming events). */
export function sseJson<T = unknown>(text: string): T[] {
  return sseEvents(text)
    .filter((event) => event.data !== '')
    .map((event) => JSON.parse(event.data) as T);
}
