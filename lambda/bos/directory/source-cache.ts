/**
 * A source definition's `cache` option: `{ enabled, refresh, max_staleness }`, the durations in ISO 8601
 * (`PT15M`, `PT1H`, `P1D`). Off unless `enabled` is `true`. Format: docs/cache.md.
 */

/** The option as a definition writes it. */
export interface SourceCacheDefinition {
  enabled: boolean;
  /** How often the scheduled sync refreshes the baseline. @default "PT15M" */
  refresh?: string;
  /** The oldest baseline a read may use; older means a live read. @default "PT1H" */
  max_staleness?: string;
}

/** The validated option in milliseconds (matches the sources' `SourceCachePolicy` structurally). */
export interface SourceCacheMillis {
  readonly refreshMs: number;
  readonly maxStalenessMs: number;
}

export const DEFAULT_CACHE_REFRESH = 'PT15M';
export const DEFAULT_CACHE_MAX_STALENESS = 'PT1H';
/** A schedule fires at most once a minute (EventBridge Scheduler's finest rate). */
const MIN_REFRESH_MS = 60_000;
/** A Graph delta link lives seven days; a baseline older than that cannot be trusted anywhere. */
const MAX_DURATION_MS = 7 * 24 * 3_600_000;

// Weeks, days, hours, minutes, seconds. Years and months have no fixed length, so they are refused.
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const UNIT_MS = [7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1_000] as const;

/** An ISO 8601 duration of weeks, days, hours, minutes and seconds in milliseconds; `undefined` if not one. */
export function parseIsoDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (match === null || text === 'P' || text.endsWith('T')) return undefined;
  const parts = match.slice(1);
  if (parts.every((part) => part === undefined)) return undefined;
  return parts.reduce((total, part, i) => total + (part === undefined ? 0 : Number(part) * UNIT_MS[i]!), 0);
}

/**
 * Validates a definition's `cache` value at JSON path `at`, pushing every problem; `undefined` when absent
 * or malformed.
 */
export function parseSourceCache(
  value: unknown,
  at: string,
  problems: string[],
): SourceCacheDefinition | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${at} must be an object { enabled, refresh?, max_staleness? }`);
    return undefined;
  }
  const { enabled, refresh, max_staleness, ...rest } = value as Record<string, unknown>;
  const before = problems.length;
  for (const key of Object.keys(rest)) problems.push(`${at}.${key} is not a cache option`);
  if (typeof enabled !== 'boolean') problems.push(`${at}.enabled must be a boolean`);
  const refreshMs = duration(refresh, DEFAULT_CACHE_REFRESH, `${at}.refresh`, problems);
  const staleMs = duration(max_staleness, DEFAULT_CACHE_MAX_STALENESS, `${at}.max_staleness`, problems);
  if (refreshMs !== undefined && refreshMs < MIN_REFRESH_MS)
    problems.push(`${at}.refresh must be at least PT1M (a schedule runs at most once a minute)`);
  if (refreshMs !== undefined && staleMs !== undefined && staleMs < refreshMs)
    problems.push(`${at}.max_staleness must be at least refresh (else every read between syncs goes live)`);
  if (problems.length > before) return undefined;
  return {
    enabled: enabled as boolean,
    ...(refresh === undefined ? {} : { refresh: refresh as string }),
    ...(max_staleness === undefined ? {} : { max_staleness: max_staleness as string }),
  };
}

function duration(value: unknown, fallback: string, at: string, problems: string[]): number | undefined {
  const text = value ?? fallback;
  const ms = typeof text === 'string' ? parseIsoDuration(text) : undefined;
  if (ms === undefined) {
    problems.push(
      `${at} must be an ISO 8601 duration of weeks, days, hours, minutes or seconds (e.g. "PT15M")`,
    );
    return undefined;
  }
  if (ms > MAX_DURATION_MS) problems.push(`${at} must be at most P7D`);
  return ms;
}

/** The cache policy of a definition's option, in milliseconds; `undefined` when the source is not cached. */
export function sourceCacheMillis(cache: SourceCacheDefinition | undefined): SourceCacheMillis | undefined {
  if (cache?.enabled !== true) return undefined;
  return {
    refreshMs: parseIsoDuration(cache.refresh ?? DEFAULT_CACHE_REFRESH) ?? 0,
    maxStalenessMs: parseIsoDuration(cache.max_staleness ?? DEFAULT_CACHE_MAX_STALENESS) ?? 0,
  };
}
