/**
 * The `http-json` adapter kind: a paged REST JSON source declared entirely in the directory. Its options
 * are checked all at once when the directory is loaded; every problem names its option, and a bad
 * definition makes only that source answer `source_unavailable`.
 *
 * ```json
 * { "source_id": "acme-payroll", "adapter": "http-json", "credential_ref": "ACME_PAYROLL_TOKEN",
 *   "options": {
 *     "base_url": "https://payroll.example.com",
 *     "operations": { "list_people": "/v2/employees", "search_people": "/v2/employees?q={query}" },
 *     "auth": { "kind": "bearer" },
 *     "pagination": { "kind": "offset_limit", "page_size": 100 },
 *     "records_path": "data.items",
 *     "fields": { "external_id": "id", "display_name": "full_name", "email": "work_email",
 *                 "observed_at": "updated_at", "attributes": { "department": "org.department" } } } }
 * ```
 */
import { CLIENT_CREDENTIALS, clientCredentialsOf, providerUrlType } from '../oauth/options.js';
import type { ClientCredentialsOptions } from '../oauth/options.js';
import { SourceConfigError } from '../registry/errors.js';
import {
  integer,
  objectOf,
  option,
  optionTable,
  readContext,
  sourceTypeOption,
  text,
  timeoutOption,
  valueOf,
  variantOf,
} from '../registry/option-table.js';
import type { OptionType } from '../registry/option-table.js';
import type { SourceSpec } from '../registry/types.js';

/** The adapter kind this module builds. */
export const HTTP_JSON_ADAPTER = 'http-json';

/** How the source pages. */
export type HttpJsonPagination =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'offset_limit';
      readonly offsetParam: string;
      readonly limitParam: string;
      readonly pageSize: number;
    }
  | {
      readonly kind: 'page_number';
      readonly pageParam: string;
      readonly sizeParam: string;
      readonly pageSize: number;
      readonly firstPage: number;
    }
  | { readonly kind: 'cursor'; readonly cursorParam: string; readonly nextCursorField: string }
  | { readonly kind: 'next_url'; readonly nextUrlField: string }
  | { readonly kind: 'link_header' };

/** How requests are authenticated. */
export type HttpJsonAuth =
  | { readonly kind: 'none' }
  | { readonly kind: 'bearer' }
  | { readonly kind: 'basic' }
  | { readonly kind: 'oauth'; readonly oauth: ClientCredentialsOptions };

/** Where each federated field comes from (dotted JSON paths into one record). */
export interface HttpJsonFields {
  readonly externalId: string;
  readonly displayName?: string;
  readonly email?: string;
  readonly phone?: string;
  readonly lifecycle?: string;
  readonly observedAt?: string;
  readonly attributes: Readonly<Record<string, string>>;
}

/** Validated options of one `http-json` source. */
export interface HttpJsonOptions {
  readonly baseUrl: URL;
  /** URL template per operation (`{query}`, `{updated_since}` are replaced, URL-encoded). */
  readonly operations: Readonly<Partial<Record<'list_people' | 'search_people' | 'get_person', string>>>;
  readonly auth: HttpJsonAuth;
  readonly pagination: HttpJsonPagination;
  /** Dotted path of the record array in each response ('' for a top-level array). */
  readonly recordsPath: string;
  readonly fields: HttpJsonFields;
  readonly sourceType: string;
  /**
   * Each record's value at `path` must start with `prefix` (e.g. a self link under the tenant's URL), else
   * the source ends `source_identity_mismatch` before that page is published.
   */
  readonly identity?: { readonly path: string; readonly prefix: string };
  readonly timeoutMs?: number;
}

const PATH = /^(?:[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)?$/;
const JSON_PATH = text(PATH, 'a dotted JSON path', 'dotted path');
const FIELD_PATH = valueOf(
  'dotted path',
  'a dotted JSON path',
  (v): v is string => typeof v === 'string' && v !== '' && PATH.test(v),
);
const PARAM = text(/^[A-Za-z0-9_.[\]-]{1,64}$/, 'a parameter or field name', 'name');
const TEMPLATE = valueOf(
  'path template',
  'a path template starting with /',
  (v): v is string => typeof v === 'string' && v.startsWith('/') && !/[\s#]/.test(v),
);
const ATTRIBUTE_PATHS: OptionType<Record<string, string>> = {
  type: 'object',
  check: (value, at, { problems }) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`${at} must map attribute names to JSON paths`);
      return undefined;
    }
    const bad = Object.entries(value as Record<string, unknown>).filter(
      ([name, p]) =>
        !(typeof p === 'string' && p !== '' && PATH.test(p) && /^[a-z][a-z0-9_]{0,63}$/.test(name)),
    );
    for (const [name] of bad)
      problems.push(`${at}.${name} must be a snake_case name mapped to a dotted JSON path`);
    return bad.length > 0 ? undefined : (value as Record<string, string>);
  },
};
const PAGE_SIZE = option(integer(1, 1000), { default: 100, meaning: 'records asked for per page' });
const param = (fallback: string) =>
  option(PARAM, { default: fallback, meaning: `the name (default \`${fallback}\`)` });

const PAGINATION = variantOf({
  none: optionTable('pagination', {}),
  offset_limit: optionTable('pagination', {
    offset_param: param('offset'),
    limit_param: param('limit'),
    page_size: PAGE_SIZE,
  }),
  page_number: optionTable('pagination', {
    page_param: param('page'),
    size_param: param('per_page'),
    page_size: PAGE_SIZE,
    first_page: option(
      valueOf('0 or 1', '0 or 1', (v): v is 0 | 1 => v === 0 || v === 1),
      { default: 1, meaning: 'the number of the first page' },
    ),
  }),
  cursor: optionTable('pagination', {
    cursor_param: param('cursor'),
    next_cursor_field: param('next_cursor'),
  }),
  next_url: optionTable('pagination', { next_url_field: param('next') }),
  link_header: optionTable('pagination', {}),
});

const AUTH = variantOf({
  none: optionTable('auth', {}),
  bearer: optionTable('auth', {}),
  basic: optionTable('auth', {}),
  oauth: CLIENT_CREDENTIALS,
});

/** The `http-json` kind's options. */
export const HTTP_JSON_OPTIONS = optionTable(
  HTTP_JSON_ADAPTER,
  {
    base_url: option(providerUrlType(), { required: true, meaning: "the API's origin (`https`)" }),
    operations: option(
      objectOf(
        optionTable(
          'operations',
          {
            list_people: option(TEMPLATE, { required: true, meaning: 'the list template' }),
            search_people: option(TEMPLATE, { meaning: 'the search template' }),
            get_person: option(TEMPLATE, { meaning: 'the lookup template' }),
          },
          { unknown: 'an operation' },
        ),
      ),
      {
        required: true,
        meaning:
          'a path template per operation: `list_people` (required), `search_people`, `get_person`. `{query}` and `{updated_since}` are replaced, URL-encoded. Without a `search_people` template (or without `{updated_since}` in the list template) the adapter reads the list and answers the query itself (name or email contains the text; `observed_at` at or after the time)',
      },
    ),
    auth: option(AUTH, {
      default: { kind: 'none' },
      meaning:
        '`{"kind":"none"}`, `{"kind":"bearer"}` (the secret is the token), `{"kind":"basic"}` (the secret is `user:password`), or `{"kind":"oauth", …}` with the broker\'s options (`token_url`, `client_id`, `auth_method`, `scopes`, `resource`, `assertion_alg`, `key_id`; the secret is the client secret or private key)',
    }),
    pagination: option(PAGINATION, {
      default: { kind: 'none' },
      meaning:
        '`none`; `offset_limit` (`offset_param`, `limit_param`, `page_size`); `page_number` (`page_param`, `size_param`, `page_size`, `first_page` 0 or 1); `cursor` (`cursor_param`, `next_cursor_field`); `next_url` (`next_url_field`); `link_header` (`Link: <…>; rel="next"`). Offset and page-number paging end on an empty page (a server answering fewer records than asked does not end the read); next links must stay on `base_url`\'s origin',
    }),
    records_path: option(JSON_PATH, {
      default: '',
      meaning: 'dotted path of the record array in each response (`""` for a top-level array)',
    }),
    fields: option(
      objectOf(
        optionTable(
          'fields',
          {
            external_id: option(FIELD_PATH, { required: true, meaning: 'path of the external id' }),
            display_name: option(FIELD_PATH, { meaning: 'path of the display name' }),
            email: option(FIELD_PATH, { meaning: 'path of the email' }),
            phone: option(FIELD_PATH, { meaning: 'path of the phone' }),
            lifecycle: option(FIELD_PATH, { meaning: 'path of the lifecycle' }),
            observed_at: option(FIELD_PATH, { meaning: 'path of the time observed' }),
            attributes: option(ATTRIBUTE_PATHS, { default: {}, meaning: 'snake_case name → path' }),
          },
          { unknown: 'a record field' },
        ),
      ),
      {
        required: true,
        meaning:
          'dotted paths for `external_id` (required), `display_name`, `email`, `phone`, `lifecycle`, `observed_at`, and `attributes` (snake_case name → path; strings, numbers and booleans are copied)',
      },
    ),
    identity: option(
      objectOf(
        optionTable('identity', {
          path: option(FIELD_PATH, { required: true, meaning: 'the path of the value checked' }),
          prefix: option(
            valueOf(
              'string',
              'the text it must start with',
              (v): v is string => typeof v === 'string' && v !== '',
            ),
            { required: true, meaning: 'what the value must start with' },
          ),
        }),
      ),
      {
        meaning:
          "each record's value at `path` must start with `prefix`, else the source ends `source_identity_mismatch` and none of that page is published",
      },
    ),
    source_type: sourceTypeOption('http-json'),
    timeout_ms: timeoutOption,
  },
  {
    refine: ({ base_url: baseUrl, operations }, at, problems) => {
      for (const [name, template] of Object.entries(operations))
        if (template !== undefined && new URL(fill(template, {}), baseUrl).origin !== baseUrl.origin)
          problems.push(`${at}.operations.${name} must stay on base_url's origin`);
    },
  },
);

/** Reads an `http-json` definition; throws {@link SourceConfigError} listing every problem. */
export function httpJsonOptionsFromSpec(spec: SourceSpec, allowLoopbackHttp: boolean): HttpJsonOptions {
  const context = readContext(HTTP_JSON_ADAPTER, allowLoopbackHttp);
  const { problems } = context;
  const o = HTTP_JSON_OPTIONS.read(spec.options, 'options', context);
  const authKind = (spec.options['auth'] as { kind?: unknown } | undefined)?.kind ?? 'none';
  if (authKind !== 'none' && spec.credential === undefined)
    problems.push(
      `options.auth.kind ${typeof authKind === 'string' ? authKind : 'other than none'} needs a credential_ref`,
    );
  const auth = o === undefined ? undefined : authOf(o.auth, problems);
  if (o === undefined || auth === undefined || problems.length > 0)
    throw new SourceConfigError(spec.source_id, 'invalid_options', problems);
  const { fields, pagination: p } = o;
  return {
    baseUrl: o.base_url,
    operations: Object.fromEntries(Object.entries(o.operations).filter(([, t]) => t !== undefined)),
    auth,
    pagination:
      p.kind === 'offset_limit'
        ? { kind: p.kind, offsetParam: p.offset_param, limitParam: p.limit_param, pageSize: p.page_size }
        : p.kind === 'page_number'
          ? {
              kind: p.kind,
              pageParam: p.page_param,
              sizeParam: p.size_param,
              pageSize: p.page_size,
              firstPage: p.first_page,
            }
          : p.kind === 'cursor'
            ? { kind: p.kind, cursorParam: p.cursor_param, nextCursorField: p.next_cursor_field }
            : p.kind === 'next_url'
              ? { kind: p.kind, nextUrlField: p.next_url_field }
              : { kind: p.kind },
    recordsPath: o.records_path,
    fields: {
      externalId: fields.external_id,
      ...(fields.display_name === undefined ? {} : { displayName: fields.display_name }),
      ...(fields.email === undefined ? {} : { email: fields.email }),
      ...(fields.phone === undefined ? {} : { phone: fields.phone }),
      ...(fields.lifecycle === undefined ? {} : { lifecycle: fields.lifecycle }),
      ...(fields.observed_at === undefined ? {} : { observedAt: fields.observed_at }),
      attributes: fields.attributes,
    },
    sourceType: o.source_type,
    ...(o.identity === undefined ? {} : { identity: { path: o.identity.path, prefix: o.identity.prefix } }),
    ...(o.timeout_ms === undefined ? {} : { timeoutMs: o.timeout_ms }),
  };
}

/** A template with `{name}` placeholders replaced by URL-encoded values ('' when absent). */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(query|updated_since)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? ''),
  );
}

function authOf(
  auth: Exclude<ReturnType<typeof HTTP_JSON_OPTIONS.read>, undefined>['auth'],
  problems: string[],
): HttpJsonAuth | undefined {
  if (auth.kind !== 'oauth') return { kind: auth.kind };
  const oauth = clientCredentialsOf(auth, 'options.auth', problems);
  return oauth === undefined ? undefined : { kind: 'oauth', oauth };
}
