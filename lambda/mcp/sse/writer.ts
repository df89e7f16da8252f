/**
 * Server-Sent Events frame formatting (WHATWG HTML §9.2). Each application frame is
 * `id: N\nevent: message\ndata: <one JSON-RPC message>\n\n`; the priming frame is `id: N\ndata:\n\n`
 * (mcp-method-surface "Resumability": an empty-data event clients can store the id of).
 */

const encoder = new TextEncoder();
const LF = 0x0a;

function assertSingleLine(field: string, value: string): void {
  // A CR or LF inside `id`/`event` would end the field early and let data forge extra fields.
  if (/[\r\n]/.test(value)) throw new Error(`SSE ${field} must not contain CR or LF`);
}

/**
 * JSON.stringify output never holds a raw CR or LF, so the usual data is one line; indexOf scans it far faster
 * than a split with a regular expression (page frames are tens of kilobytes each).
 */
function isSingleLine(data: string): boolean {
  return data.indexOf('\n') === -1 && data.indexOf('\r') === -1;
}

function dataLines(data: string): string {
  if (data === '') return 'data:\n';
  if (isSingleLine(data)) return `data: ${data}\n`;
  let out = '';
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return out;
}

/** The `id:` and `event:` lines of a frame. */
function fieldLines(id: string | undefined, event: string | undefined): string {
  let head = '';
  if (id !== undefined) {
    assertSingleLine('id', id);
    head += `id: ${id}\n`;
  }
  if (event !== undefined) {
    assertSingleLine('event', event);
    head += `event: ${event}\n`;
  }
  return head;
}

/** One event frame; `event` is omitted for the priming frame (empty data). */
export function eventFrame(data: string, id?: string, event?: string): string {
  return fieldLines(id, event) + dataLines(data) + '\n';
}

/**
 * The UTF-8 bytes of `eventFrame(data, id, event)`, written without building the frame string: concatenating a
 * large JSON message into a frame and then encoding it copies the whole message once more (twice for text
 * outside Latin-1, which JavaScript stores as two bytes per unit).
 */
export function encodeEventFrame(data: string, id?: string, event?: string): Uint8Array {
  const head = fieldLines(id, event);
  if (data === '' || !isSingleLine(data)) return encodeFrame(head + dataLines(data) + '\n');
  return encodeLine(`${head}data: `, data);
}

/**
 * `encodeEventFrame` for data that `JSON.stringify` wrote: JSON text never holds a raw CR or LF (it escapes them),
 * so the data is one line without scanning it (page frames are tens of kilobytes each).
 */
export function encodeJsonEventFrame(json: string, id?: string, event?: string): Uint8Array {
  if (json === '') return encodeEventFrame(json, id, event);
  return encodeLine(`${fieldLines(id, event)}data: `, json);
}

/** UTF-8 bytes of `prefix + body + "\n\n"`, in a buffer of exactly that size. */
function encodeLine(prefix: string, body: string): Uint8Array {
  const prefixBytes = Buffer.byteLength(prefix, 'utf8');
  const bytes = new Uint8Array(prefixBytes + Buffer.byteLength(body, 'utf8') + 2);
  encoder.encodeInto(prefix, bytes);
  const end = prefixBytes + encoder.encodeInto(body, bytes.subarray(prefixBytes)).written;
  bytes[end] = LF;
  bytes[end + 1] = LF;
  return bytes;
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
