/**
 * The `scim` adapter kind's options, as a directory source definition writes them (snake_case), checked
 * all at once: every problem names its option, and none of them is secret (the credential is a
 * `credential_ref`).
 *
 * ```json
 * { "source_id": "acme-scim", "adapter": "scim", "credential_ref": "ACME_SCIM_TOKEN",
 *   "options": { "base_url": "https://hr.example.com/scim/v2", "auth": "bearer", "page_size": 100 } }
 * ```
 */
import { SourceConfigError } from '../registry/errors.js';
import type { SourceSpec } from '../registry/types.js';

/** The `filter` option's values (docs/adapters.md "Filtering"). */
export const FILTER_OPTIONS = ['auto', 'server', 'local'] as const;
/** How a source's queries are answered: see {@link ScimSourceOptions.filter}. */
export type FilterOption = (typeof FILTER_OPTIONS)[number];

/** The adapter kind this module builds. */
export const SCIM_ADAPTER = 'scim';

/** Validated options of one SCIM source. */
export interface ScimSourceOptions {
  /** The SCIM base URL (…/scim/v2), without a trailing slash. */
  readonly baseUrl: URL;
  /** How the credential is sent: `Authorization: Bearer <value>` or Basic with a `user:password` value. */
  readonly auth: 'bearer' | 'basic';
  readonly sourceType: string;
  /** Records asked for per provider page (`count`), lowered to the server's advertised maximum. */
  readonly pageSize: number;
  /** The host every record's `meta.location` must name (default: the base URL's host). */
  readonly locationHost: string;
  readonly timeoutMs?: number;
  /**
   * Where queries are answered: `auto` tries the server's filters and degrades to what it accepts,
   * `server` only ever sends the full filter (a refusal fails the source), `local` lists every user and
   * matches here (docs/adapters.md "Filtering").
   * @default 'auto'
   */
  readonly filter: FilterOption;
}

const KEYS = ['base_url', 'auth', 'source_type', 'page_size', 'location_host', 'timeout_ms', 'filter'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;
const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** Reads a `scim` definition's options; throws {@link SourceConfigError} listing every problem. */
export function scimOptionsFromSpec(spec: SourceSpec): ScimSourceOptions {
  const o = spec.options;
  const problems: string[] = [];
  for (const key of Object.keys(o))
    if (!KEYS.includes(key)) problems.push(`options.${key} is not a scim option`);
  let baseUrl: URL | undefined;
  const rawBase = o['base_url'];
  if (typeof rawBase !== 'string') problems.push('options.base_url must be the SCIM base URL');
  else {
    try {
      baseUrl = new URL(rawBase.replace(/\/+$/, ''));
      if (baseUrl.protocol !== 'https:' && baseUrl.protocol !== 'http:')
        problems.push('options.base_url must be an https URL');
      if (baseUrl.username !== '' || baseUrl.password !== '' || baseUrl.search !== '' || baseUrl.hash !== '')
        problems.push('options.base_url must carry no credentials, query or fragment');
    } catch {
      problems.push('options.base_url must be an absolute URL');
    }
  }
  const auth = o['auth'] ?? 'bearer';
  if (auth !== 'bearer' && auth !== 'basic') problems.push('options.auth must be "bearer" or "basic"');
  const sourceType = o['source_type'] ?? 'scim';
  if (typeof sourceType !== 'string' || !NAME.test(sourceType))
    problems.push(`options.source_type must match ${NAME}`);
  const pageSize = o['page_size'] ?? 100;
  if (!(Number.isSafeInteger(pageSize) && (pageSize as number) >= 1 && (pageSize as number) <= 1000))
    problems.push('options.page_size must be an integer from 1 to 1000');
  const locationHost = o['location_host'];
  if (locationHost !== undefined && !(typeof locationHost === 'string' && HOST.test(locationHost)))
    problems.push('options.location_host must be a host name, optionally with a port');
  const timeout = o['timeout_ms'];
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && (timeout as number) > 0))
    problems.push('options.timeout_ms must be a positive integer');
  const filter = o['filter'] ?? 'auto';
  if (!FILTER_OPTIONS.includes(filter as FilterOption))
    problems.push(`options.filter must be one of ${FILTER_OPTIONS.map((f) => `"${f}"`).join(', ')}`);
  if (spec.credential === undefined) problems.push('a scim source needs a credential_ref');
  if (problems.length > 0 || baseUrl === undefined)
    throw new SourceConfigError(spec.source_id, 'invalid_options', problems);
  return {
    baseUrl,
    auth: auth as 'bearer' | 'basic',
    sourceType: sourceType as string,
    pageSize: pageSize as number,
    locationHost: typeof locationHost === 'string' ? locationHost.toLowerCase() : baseUrl.host.toLowerCase(),
    ...(typeof timeout === 'number' ? { timeoutMs: timeout } : {}),
    filter: filter as FilterOption,
  };
}
