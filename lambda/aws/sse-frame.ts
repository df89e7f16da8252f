/**
 * A minimal SSE frame encoder (WHATWG HTML "Server-sent events"), used by the adapter for the one frame it
 * writes itself: the JSON-RPC error that reports a failure after the stream has started.
 */

/** One SSE event. `data` may contain newlines; each line becomes its own `data:` field. */
export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

function singleLine(field: 'id' | 'event', value: string): string {
  // A CR or LF here would end the field early and let the value inject fields of its own (hono's rule).
  if (LINE_BREAK.test(value)) throw new TypeError(`SSE ${field} must not contain CR or LF`);
  return `${field}: ${value}\n`;
}

/** Encodes one frame: `id: 1\nevent: message\ndata: {"ok":true}\n\n`. */
export function encodeSseFrame(frame: SseFrame): string {
  let text = '';
  if (frame.id !== undefined) text += singleLine('id', frame.id);
  if (frame.event !== undefined) text += singleLine('event', frame.event);
  for (const line of frame.data.split(LINE_BREAK)) text += `data: ${line}\n`;
  return `${text}\n`;
}
