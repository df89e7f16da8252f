/**
 * RFC 4517 §3.3.15 GeneralizedTime → ISO 8601 (UTC, second precision). Covers what directories send:
 * OpenLDAP's `20261008120000Z`, Active Directory's `20261206152118.0Z`, fractions with `.` or `,`,
 * a `+hhmm`/`-hhmm` differential instead of `Z`, and the minute- or hour-only forms. Anything else
 * (including an impossible date) is undefined, so the caller falls back rather than guesses. And back:
 * an ISO instant as the value of a `>=` assertion.
 */

const SHAPE = /^(\d{4})(\d{2})(\d{2})(\d{2})(?:(\d{2})(\d{2})?)?(?:[.,]\d+)?(Z|[+-]\d{2}(?:\d{2})?)$/;

/** `20261008120000Z` (or `…00.0Z`, `…00+0200`, `2026100812Z`) → `2026-10-08T12:00:00Z`, else undefined. */
export function isoOfGeneralizedTime(value: string | undefined): string | undefined {
  const m = value === undefined ? null : SHAPE.exec(value);
  if (m === null) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  const zone = m[7] ?? 'Z';
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 2026-02-30 over to March: a time that does not read back is not a real one.
  if (
    local.getUTCMonth() !== month - 1 ||
    local.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return undefined;
  const offsetMinutes =
    zone === 'Z'
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5) || 0));
  return `${new Date(local.getTime() - offsetMinutes * 60_000).toISOString().slice(0, 19)}Z`;
}

/** `20261008120000Z` (or, with `fraction`, `20261008120000.0Z`) of an ISO instant. */
export function generalizedTime(iso: string, fraction = false): string {
  const digits = new Date(iso).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return fraction ? `${digits}.0Z` : `${digits}Z`;
}
