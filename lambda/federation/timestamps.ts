/** Timestamp parsing and the formats of the final metadata (§5 final frame prints `2026-10-08T12:00:00+00:00`). */

/** Epoch milliseconds as `YYYY-MM-DDTHH:MM:SS+00:00` (whole seconds, UTC). */
export function formatObservedAt(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}+00:00`;
}

/** The number `count` ASCII digits of `text` spell from `at`, or -1 if any is not a digit. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * `Date.parse(text)`, with a scan-only fast path for the form providers send (`YYYY-MM-DDTHH:MM:SSZ`, optionally
 * with `.sss`): it runs once per record. Anything else, and any field out of the ranges below, takes
 * `Date.parse` itself, so the result is always exactly Date.parse's. Days 29–31 roll over into the next month
 * in both (Date.parse('2026-02-30T00:00:00Z') is 2 March); years below 100 are left to Date.parse because
 * Date.UTC would read them as 19xx.
 */
export function parseInstant(text: string): number {
  const n = text.length;
  if ((n !== 20 && n !== 24) || text.charCodeAt(n - 1) !== 0x5a /* Z */) return Date.parse(text);
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':')
    return Date.parse(text);
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const ms = n === 24 ? (text[19] === '.' ? digits(text, 20, 3) : -1) : 0;
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23)
    return Date.parse(text);
  if (minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return Date.parse(text);
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}
