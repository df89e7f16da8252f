/**
 * Cursor pagination shared by every list method (MCP "Pagination": cursors are opaque strings). The
 * cursor is `v1:<offset>` in base64url; anything else is -32602. Offsets index registration order, which
 * is stable for the life of a server instance.
 */
import { InvalidParamsError } from '../errors.js';

/** One page of a list and the cursor of the next page, if any. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

function encodeCursor(offset: number): string {
  return Buffer.from(`v1:${offset}`).toString('base64url');
}

function decodeCursor(cursor: unknown, length: number): number {
  if (typeof cursor !== 'string' || cursor.length > 64)
    throw new InvalidParamsError('Invalid params: invalid cursor');
  const match = /^v1:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const offset = match === null ? Number.NaN : Number(match[1]);
  if (!(offset > 0 && offset < length)) throw new InvalidParamsError('Invalid params: invalid cursor');
  return offset;
}

/** Returns the page that starts at `cursor` (absent: the first page). */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const start = cursor === undefined ? 0 : decodeCursor(cursor, items.length);
  const end = start + pageSize;
  if (start === 0 && end >= items.length) return { items: items as T[] };
  const page: Page<T> = { items: items.slice(start, end) };
  if (end < items.length) page.nextCursor = encodeCursor(end);
  return page;
}
