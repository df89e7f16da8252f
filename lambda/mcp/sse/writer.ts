/**
 * Server-Sent Events frame formatting (WHATWG HTML §9.2). Each application frame is
 * `id: N\nevent: message\ndata: <one JSON-RPC message>\n\n`; the priming frame is `id: N\ndata:\n\n`
 * (mcp-method-surface "Resumability": an empty-data event clients can store the id of).
 */

const encoder = new TextEncoder();

function assertSingleLine(field: string, value: string): void {
  // A CR or LF inside `id`/`event` would end the field early and let data forge extra fields.
  if (/[\r\n]/.test(value)) throw new Error(`SSE ${field} must not contain CR or LF`);
}

function dataLines(data: string): string {
  if (data === '') return 'data:\n';
  let out = '';
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return out;
}

/** One event frame; `event` is omitted for the priming frame (empty data). */
export function eventFrame(data: string, id?: string, event?: string): string {
  let frame = '';
  if (id !== undefined) {
    assertSingleLine('id', id);
    frame += `id: ${id}\n`;
  }
  if (event !== undefined) {
    assertSingleLine('event', event);
    frame += `event: ${event}\n`;
  }
  return frame + dataLines(data) + '\n';
}

/**
 * The priming frame of a POST stream: an id with empty data, plus `retry:` (reconnection delay in ms) when
 * given, which SEP-1699 says servers SHOULD send so clients know when to resume after the stream closes.
 */
export function primingFrame(id: string, retryMs?: number): string {
  assertSingleLine('id', id);
  const retry = retryMs === undefined ? '' : `retry: ${Math.max(0, Math.trunc(retryMs))}\n`;
  return `id: ${id}\n${retry}data:\n\n`;
}

/** The frame for a stored event: empty data is the priming event, anything else a `message`. */
export function storedEventFrame(eventId: string, data: string): string {
  return data === '' ? eventFrame('', eventId) : eventFrame(data, eventId, 'message');
}

/** A comment frame (`: text`), ignored by SSE parsers; used for keepalives and extension markers. */
export function commentFrame(text: string): string {
  let out = '';
  for (const line of text.split(/\r\n|\r|\n/)) out += `: ${line}\n`;
  return out + '\n';
}

/** UTF-8 bytes of a frame. */
export function encodeFrame(frame: string): Uint8Array {
  return encoder.encode(frame);
}
