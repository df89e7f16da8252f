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
import { parseClientCredentialsOptions, providerUrl } from '../oauth/options.js';
import type { ClientCredentialsOptions } from '../oauth/options.js';
import { SourceConfigError } from '../registry/errors.js';
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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const PATH = /^(?:[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)?$/;
const PARAM = /^[A-Za-z0-9_.[\]-]{1,64}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;
const OPERATIONS = ['list_people', 'search_people', 'get_person'] as const;
const KEYS = [
  'base_url',
  'operations',
  'auth',
  'pagination',
  'records_path',
  'fields',
  'identity',
  'source_type',
  'timeout_ms',
];

/** Reads an `http-json` definition; throws {@link SourceConfigError} listing every problem. */
export function httpJsonOptionsFromSpec(spec: SourceSpec, allowLoopbackHttp: boolean): HttpJsonOptions {
  const o = spec.options;
  const problems: string[] = [];
  for (const key of Object.keys(o))
    if (!KEYS.includes(key)) problems.push(`options.${key} is not an http-json option`);
  const baseUrl = providerUrl(o['base_url'], 'options.base_url', problems, allowLoopbackHttp);
  const operations: Partial<Record<(typeof OPERATIONS)[number], string>> = {};
  if (!isObject(o['operations'])) problems.push('options.operations must be an object of URL templates');
  else {
    for (const [name, template] of Object.entries(o['operations'])) {
      if (!(OPERATIONS as readonly string[]).includes(name))
        problems.push(`options.operations.${name} is not an operation`);
      else if (typeof template !== 'string' || !template.startsWith('/') || /[\s#]/.test(template))
        problems.push(`options.operations.${name} must be a path template starting with /`);
      else if (baseUrl !== undefined && new URL(fill(template, {}), baseUrl).origin !== baseUrl.origin)
        problems.push(`options.operations.${name} must stay on base_url's origin`);
      else operations[name as (typeof OPERATIONS)[number]] = template;
    }
    if (operations.list_people === undefined) problems.push('options.operations.list_people is required');
  }
  const auth = authOf(o['auth'], spec, problems, allowLoopbackHttp);
  const pagination = paginationOf(o['pagination'], problems);
  const recordsPath = o['records_path'] ?? '';
  if (typeof recordsPath !== 'string' || !PATH.test(recordsPath))
    problems.push('options.records_path must be a dotted JSON path');
  const fields = fieldsOf(o['fields'], problems);
  const sourceType = o['source_type'] ?? 'http-json';
  if (typeof sourceType !== 'string' || !NAME.test(sourceType))
    problems.push(`options.source_type must match ${NAME}`);
  const timeout = o['timeout_ms'];
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && (timeout as number) > 0))
    problems.push('options.timeout_ms must be a positive integer');
  const identity = o['identity'];
  if (
    identity !== undefined &&
    !(
      isObject(identity) &&
      typeof identity['path'] === 'string' &&
      identity['path'] !== '' &&
      PATH.test(identity['path']) &&
      typeof identity['prefix'] === 'string' &&
      identity['prefix'] !== ''
    )
  )
    problems.push(
      'options.identity must be { "path": a dotted JSON path, "prefix": the text it must start with }',
    );
  if (
    problems.length > 0 ||
    baseUrl === undefined ||
    auth === undefined ||
    pagination === undefined ||
    fields === undefined
  )
    throw new SourceConfigError(spec.source_id, 'invalid_options', problems);
  return {
    baseUrl,
    operations,
    auth,
    pagination,
    recordsPath: recordsPath as string,
    fields,
    sourceType: sourceType as string,
    ...(isObject(identity)
      ? { identity: { path: identity['path'] as string, prefix: identity['prefix'] as string } }
      : {}),
    ...(typeof timeout === 'number' ? { timeoutMs: timeout } : {}),
  };
}

/** A template with `{name}` placeholders replaced by URL-encoded values ('' when absent). */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(query|updated_since)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? ''),
  );
}

function authOf(
  value: unknown,
  spec: SourceSpec,
  problems: string[],
  loopback: boolean,
): HttpJsonAuth | undefined {
  const auth = value ?? { kind: 'none' };
  if (!isObject(auth)) {
    problems.push('options.auth must be an object');
    return undefined;
  }
  const kind = auth['kind'];
  if (kind !== 'none' && spec.credential === undefined)
    problems.push(`options.auth.kind ${String(kind)} needs a credential_ref`);
  switch (kind) {
    case 'none':
    case 'bearer':
    case 'basic':
      if (Object.keys(auth).length > 1)
        problems.push(`options.auth.kind ${kind} takes no other auth options`);
      return { kind };
    case 'oauth': {
      const { kind: _kind, ...rest } = auth;
      const oauth = parseClientCredentialsOptions(rest, 'options.auth', problems, loopback);
      return oauth === undefined ? undefined : { kind, oauth };
    }
    default:
      problems.push('options.auth.kind must be one of none, bearer, basic, oauth');
      return undefined;
  }
}

function paginationOf(value: unknown, problems: string[]): HttpJsonPagination | undefined {
  const p = value ?? { kind: 'none' };
  if (!isObject(p)) {
    problems.push('options.pagination must be an object');
    return undefined;
  }
  const param = (key: string, fallback: string): string => {
    const v = p[key] ?? fallback;
    if (typeof v === 'string' && PARAM.test(v)) return v;
    problems.push(`options.pagination.${key} must be a parameter or field name`);
    return fallback;
  };
  const size = (): number => {
    const v = p['page_size'] ?? 100;
    if (Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= 1000) return v as number;
    problems.push('options.pagination.page_size must be an integer from 1 to 1000');
    return 100;
  };
  switch (p['kind']) {
    case 'none':
      return { kind: 'none' };
    case 'offset_limit':
      return {
        kind: 'offset_limit',
        offsetParam: param('offset_param', 'offset'),
        limitParam: param('limit_param', 'limit'),
        pageSize: size(),
      };
    case 'page_number': {
      const first = p['first_page'] ?? 1;
      if (first !== 0 && first !== 1) problems.push('options.pagination.first_page must be 0 or 1');
      return {
        kind: 'page_number',
        pageParam: param('page_param', 'page'),
        sizeParam: param('size_param', 'per_page'),
        pageSize: size(),
        firstPage: first === 0 ? 0 : 1,
      };
    }
    case 'cursor':
      return {
        kind: 'cursor',
        cursorParam: param('cursor_param', 'cursor'),
        nextCursorField: param('next_cursor_field', 'next_cursor'),
      };
    case 'next_url':
      return { kind: 'next_url', nextUrlField: param('next_url_field', 'next') };
    case 'link_header':
      return { kind: 'link_header' };
    default:
      problems.push(
        'options.pagination.kind must be one of none, offset_limit, page_number, cursor, next_url, link_header',
      );
      return undefined;
  }
}

function fieldsOf(value: unknown, problems: string[]): HttpJsonFields | undefined {
  if (!isObject(value)) {
    problems.push('options.fields must be an object mapping record fields to JSON paths');
    return undefined;
  }
  const path = (key: string, required: boolean): string | undefined => {
    const v = value[key];
    if (v === undefined && !required) return undefined;
    if (typeof v === 'string' && v !== '' && PATH.test(v)) return v;
    problems.push(`options.fields.${key} must be a dotted JSON path`);
    return undefined;
  };
  const known = ['external_id', 'display_name', 'email', 'phone', 'lifecycle', 'observed_at', 'attributes'];
  for (const key of Object.keys(value))
    if (!known.includes(key)) problems.push(`options.fields.${key} is not a record field`);
  const attributes: Record<string, string> = {};
  const raw = value['attributes'] ?? {};
  if (!isObject(raw)) problems.push('options.fields.attributes must map attribute names to JSON paths');
  else
    for (const [name, p] of Object.entries(raw)) {
      if (typeof p === 'string' && p !== '' && PATH.test(p) && /^[a-z][a-z0-9_]{0,63}$/.test(name))
        attributes[name] = p;
      else
        problems.push(
          `options.fields.attributes.${name} must be a snake_case name mapped to a dotted JSON path`,
        );
    }
  const externalId = path('external_id', true);
  const optional = Object.fromEntries(
    (['display_name', 'email', 'phone', 'lifecycle', 'observed_at'] as const)
      .map((k) => [k, path(k, false)] as const)
      .filter(([, v]) => v !== undefined),
  );
  if (externalId === undefined) return undefined;
  return {
    externalId,
    ...(optional['display_name'] === undefined ? {} : { displayName: optional['display_name'] }),
    ...(optional['email'] === undefined ? {} : { email: optional['email'] }),
    ...(optional['phone'] === undefined ? {} : { phone: optional['phone'] }),
    ...(optional['lifecycle'] === undefined ? {} : { lifecycle: optional['lifecycle'] }),
    ...(optional['observed_at'] === undefined ? {} : { observedAt: optional['observed_at'] }),
    attributes,
  };
}
