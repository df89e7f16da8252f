/**
 * Stream events larger than one DynamoDB item, stored in parts. DynamoDB caps an item at 400 KB, and
 * reference-runtime-lessons §5 item 7 keeps inline events at or below 358,400 B; a final message of several
 * megabytes (a large federated result) is split at UTF-8 boundaries into parts of at most that size:
 *
 * - `event#<id>`        the head: `streamId`, `data` (part 1) and `parts` (N, the count, only when > 1);
 * - `event#<id>#<001>`  part 2 onwards: `streamId`, `data`, `expiresAt`.
 *
 * A part's sort key sorts right after its head and before the next event (`#` follows nothing a 12-digit id
 * can continue with), so one Query over the events returns every event followed by its parts, in order.
 * Parts are written before the head, and only the head makes an event visible: a reader never sees an event
 * whose parts are not all there, and an append that fails leaves parts nobody reads until TTL removes them.
 */

/** Largest UTF-8 size of one stored part. */
export const MAX_PART_BYTES = 358_400;

/** Most parts one event may have (3-digit part numbers): about 358 MB, far above MCP_STREAM_MAX_EVENT_BYTES. */
export const MAX_PARTS = 999;

const PART_SUFFIX = /^event#\d{12}#\d{3}$/;

/** The sort key of part `index` (1-based, the head being part 0) of event `eventId`. */
export function partKey(eventId: string, index: number): string {
  return `event#${eventId}#${String(index).padStart(3, '0')}`;
}

/** Whether a sort key names a continuation part rather than an event head. */
export function isPartKey(sortKey: string): boolean {
  return PART_SUFFIX.test(sortKey);
}

/**
 * Splits `text` into pieces of at most `maxBytes` UTF-8 bytes each, never inside a surrogate pair, so every
 * piece is valid text and their concatenation is `text`. Short text (at most 3 bytes per UTF-16 unit) is
 * returned whole without being measured.
 */
export function splitUtf8(text: string, maxBytes: number): string[] {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + maxBytes);
    for (;;) {
      // A high surrogate must stay with its low half.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end = end - 1 > start ? end - 1 : end + 1;
      const bytes = Buffer.byteLength(text.slice(start, end), 'utf8');
      if (bytes <= maxBytes) break;
      // Shrink in proportion to the overshoot (at least one unit), then check again.
      end = start + Math.max(1, Math.min(end - start - 1, Math.floor(((end - start) * maxBytes) / bytes)));
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
