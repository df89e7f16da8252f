/**
 * How long a provider asks us to wait after `429 Too Many Requests`: `Retry-After` as delta-seconds or an
 * HTTP date (RFC 9110 §10.2.3) — seconds with a fraction too, as Microsoft Graph's throttling guidance shows
 * (`Retry-After: 2.128`), rounded up to the millisecond — else Okta's `X-Rate-Limit-Reset` (epoch seconds, measured against the
 * response's `Date` so clock skew does not count, plus one second as Okta advises). Undefined when the
 * response says nothing usable.
 */

/** Reads one header value from node's `IncomingHttpHeaders`-style record (lower-case names). */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The first value of `name` in `headers`. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return typeof value === 'string' ? value : value?.[0];
}

/** The wait (ms) a rate-limited response asks for, or undefined. */
export function rateLimitWaitMs(headers: HeaderBag, now: number = Date.now()): number | undefined {
  const retryAfter = headerValue(headers, 'retry-after')?.trim();
  if (retryAfter !== undefined && retryAfter !== '') {
    if (/^\d+(?:\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = headerValue(headers, 'x-rate-limit-reset')?.trim();
  if (reset !== undefined && /^\d+$/.test(reset)) {
    const date = Date.parse(headerValue(headers, 'date') ?? '');
    const base = Number.isNaN(date) ? now : date;
    return Math.max(0, Number(reset) * 1000 - base + 1000);
  }
  return undefined;
}
