/** Timestamp parsing and the formats of the final metadata (§5 final frame prints `2026-10-08T12:00:00+00:00`). */

/** Epoch milliseconds as `YYYY-MM-DDTHH:MM:SS+00:00` (whole seconds, UTC). */
export function formatObservedAt(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}+00:00`;
}

/** Whether the UTF-16 unit at `at` is `code` (no one-character string is made, unlike `text[at]`). */
const isCharAt = (text: string, at: number, code: number) => text.charCodeAt(at) === code;

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
 * Days from 1970-01-01 to `day`/`month`/`year` in the proleptic Gregorian calendar (H. Hinnant's
 * days_from_civil, in integer arithmetic; `year` ≥ 1). Linear in `day`, so a day past the month's end rolls into
 * the next month exactly as Date.UTC's MakeDay does. Plain arithmetic instead of a call to the Date.UTC builtin,
 * which cost more than the whole scan below.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1; // the year starts on 1 March
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * `Date.parse(text)`, with a scan-only fast path for the form providers send (`YYYY-MM-DDTHH:MM:SSZ`, optionally
 * with `.sss`): it runs once per record. Anything else, and any field out of the ranges below, takes
 * `Date.parse` itself, so the result is always exactly Date.parse's. Days 29–31 roll over into the next month
 * in both (Date.parse('2026-02-30T00:00:00Z') is 2 March); years below 100 are left to Date.parse, which reads
 * some of them as 19xx.
 */
export function parseInstant(text: string): number {
  const n = text.length;
  if ((n !== 20 && n !== 24) || text.charCodeAt(n - 1) !== 0x5a /* Z */) return Date.parse(text);
  if (!isCharAt(text, 4, 0x2d) || !isCharAt(text, 7, 0x2d) || !isCharAt(text, 10, 0x54))
    return Date.parse(text);
  if (!isCharAt(text, 13, 0x3a) || !isCharAt(text, 16, 0x3a)) return Date.parse(text);
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const ms = n === 24 ? (isCharAt(text, 19, 0x2e) ? digits(text, 20, 3) : -1) : 0;
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23)
    return Date.parse(text);
  if (minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return Date.parse(text);
  return (
    daysFromCivil(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + ms
  );
}
