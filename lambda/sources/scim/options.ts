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
import { providerUrlType } from '../oauth/options.js';
import { SourceConfigError } from '../registry/errors.js';
import {
  integer,
  oneOf,
  option,
  optionTable,
  readContext,
  sourceTypeOption,
  text,
  timeoutOption,
} from '../registry/option-table.js';
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

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** The `scim` kind's options. */
export const SCIM_OPTIONS = optionTable(SCIM_ADAPTER, {
  base_url: option(providerUrlType({ noQuery: true }), {
    required: true,
    meaning: 'the SCIM base URL, the one `/Users` hangs off (…/scim/v2); `https` only',
  }),
  auth: option(oneOf(['bearer', 'basic']), {
    default: 'bearer',
    meaning: '`bearer` (the credential is the token) or `basic` (the credential is `user:password`)',
  }),
  page_size: option(integer(1, 1000), {
    default: 100,
    meaning: "records asked for per provider page (`count`), lowered to the server's advertised maximum",
  }),
  location_host: option(text(HOST, 'a host name, optionally with a port', 'host[:port]'), {
    defaultText: "`base_url`'s host",
    meaning: "the host every user's `meta.location` must name",
  }),
  source_type: sourceTypeOption('scim'),
  timeout_ms: timeoutOption,
  filter: option(oneOf(FILTER_OPTIONS), {
    default: 'auto',
    meaning: 'who answers queries: `auto`, `server` or `local` (see "Filtering" below)',
  }),
});

/** Reads a `scim` definition's options; throws {@link SourceConfigError} listing every problem. */
export function scimOptionsFromSpec(spec: SourceSpec, allowLoopbackHttp: boolean): ScimSourceOptions {
  const context = readContext(SCIM_ADAPTER, allowLoopbackHttp);
  const o = SCIM_OPTIONS.read(spec.options, 'options', context);
  if (spec.credential === undefined) context.problems.push('a scim source needs a credential_ref');
  if (o === undefined || context.problems.length > 0)
    throw new SourceConfigError(spec.source_id, 'invalid_options', context.problems);
  const baseUrl = new URL(o.base_url.href.replace(/\/+$/, ''));
  return {
    baseUrl,
    auth: o.auth,
    sourceType: o.source_type,
    pageSize: o.page_size,
    locationHost: (o.location_host ?? baseUrl.host).toLowerCase(),
    ...(o.timeout_ms === undefined ? {} : { timeoutMs: o.timeout_ms }),
    filter: o.filter,
  };
}
