/**
 * The `bos-directory/v1` document: the whole tenancy directory as one JSON file (principals and their
 * grants, contexts, source definitions). It is what `npm run seed:directory` loads into
 * `BOS_DIRECTORY_TABLE`, and what the embedded demo directory is written as. Format: docs/bos.md.
 */
import { DirectoryDocumentError } from './errors.js';
import { parseSourceCache } from './source-cache.js';
import type { SourceCacheDefinition } from './source-cache.js';
import type { ContextGrant, PublicContext } from './types.js';

export const DIRECTORY_FORMAT = 'bos-directory/v1';

/** A principal (token `sub`) and the handles granted to it, in listing order. */
export interface PrincipalDefinition {
  subject: string;
  grants: readonly string[];
}

/**
 * A source as the deployment knows it. `credential_ref` is a *name* resolved by a `CredentialResolver`
 * inside the adapter (`BOS_SECRET_<NAME>` locally, Secrets Manager deployed); no value is ever stored here.
 */
export interface SourceDefinition {
  source_id: string;
  /** Adapter kind the composition root maps to a factory (e.g. `fixture`). */
  adapter: string;
  /** Adapter-specific, non-secret options. */
  options: Readonly<Record<string, unknown>>;
  credential_ref?: string;
  /** Opts the source in to the source cache (docs/cache.md). @default off */
  cache?: SourceCacheDefinition;
}

/** A context as the file writes it: the public object, flat, plus what it permits. */
export interface ContextDefinition extends PublicContext {
  operations: readonly string[];
  /** Sources read in this context, in read order. */
  source_ids: readonly string[];
  /** Per-source read timeout in this context. @default the platform's */
  source_timeout_ms?: number;
}

/** The runtime shape of a context definition. */
export function contextGrantOf(definition: ContextDefinition): ContextGrant {
  return {
    context: {
      context_handle: definition.context_handle,
      organization_name: definition.organization_name,
      application_name: definition.application_name,
      installation_name: definition.installation_name,
      role_label: definition.role_label,
      is_default: definition.is_default,
    },
    operations: definition.operations,
    sourceIds: definition.source_ids,
    ...(definition.source_timeout_ms === undefined ? {} : { sourceTimeoutMs: definition.source_timeout_ms }),
  };
}

/** The parsed document. */
export interface DirectoryDocument {
  format: typeof DIRECTORY_FORMAT;
  principals: readonly PrincipalDefinition[];
  contexts: readonly ContextDefinition[];
  sources: readonly SourceDefinition[];
}

// Handles are opaque and unguessable: a prefix and at least 128 bits of hex (DESIGN §5).
export const CONTEXT_HANDLE_PATTERN = /^ctx_[0-9a-f]{32,64}$/;
const ID = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;
// Names become `BOS_SECRET_<NAME>` and Secrets Manager ids: upper-case env-var style.
export const CREDENTIAL_REF_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
const CONTEXT_TEXT = ['organization_name', 'application_name', 'installation_name', 'role_label'] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= 200;

/** Validates a parsed JSON value; throws one {@link DirectoryDocumentError} listing every problem. */
export function parseDirectoryDocument(value: unknown): DirectoryDocument {
  const problems: string[] = [];
  if (!isObject(value)) throw new DirectoryDocumentError(['the document must be a JSON object']);
  if (value['format'] !== DIRECTORY_FORMAT) problems.push(`format must be "${DIRECTORY_FORMAT}"`);
  const sources = list(value, 'sources', problems).map((s, i) => source(s, `sources[${i}]`, problems));
  const sourceIds = unique(
    sources.map((s) => s.source_id),
    'sources',
    'source_id',
    problems,
  );
  const contexts = list(value, 'contexts', problems).map((c, i) =>
    context(c, `contexts[${i}]`, sourceIds, problems),
  );
  const handles = unique(
    contexts.map((c) => c.context_handle),
    'contexts',
    'context_handle',
    problems,
  );
  const principals = list(value, 'principals', problems).map((p, i) =>
    principal(p, `principals[${i}]`, handles, problems),
  );
  unique(
    principals.map((p) => p.subject),
    'principals',
    'subject',
    problems,
  );
  if (problems.length > 0) throw new DirectoryDocumentError(problems);
  return { format: DIRECTORY_FORMAT, principals, contexts, sources };
}

function list(parent: Json, key: string, problems: string[]): unknown[] {
  const value = parent[key];
  if (Array.isArray(value)) return value;
  problems.push(`${key} must be an array`);
  return [];
}

function unique(values: string[], where: string, key: string, problems: string[]): Set<string> {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) problems.push(`${where}: duplicate ${key} "${value}"`);
    seen.add(value);
  }
  return seen;
}

function strings(value: unknown, at: string, pattern: RegExp, problems: string[]): string[] {
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string' && pattern.test(v))) {
    problems.push(`${at} must be an array of strings matching ${pattern}`);
    return [];
  }
  return value;
}

function source(value: unknown, at: string, problems: string[]): SourceDefinition {
  if (!isObject(value)) {
    problems.push(`${at} must be an object`);
    return { source_id: '', adapter: '', options: {} };
  }
  const { source_id, adapter, options, credential_ref } = value;
  const cache = parseSourceCache(value['cache'], `${at}.cache`, problems);
  if (typeof source_id !== 'string' || !ID.test(source_id)) problems.push(`${at}.source_id must match ${ID}`);
  if (typeof adapter !== 'string' || !ID.test(adapter)) problems.push(`${at}.adapter must match ${ID}`);
  if (options !== undefined && !isObject(options)) problems.push(`${at}.options must be an object`);
  if (
    credential_ref !== undefined &&
    !(typeof credential_ref === 'string' && CREDENTIAL_REF_PATTERN.test(credential_ref))
  )
    problems.push(
      `${at}.credential_ref must be a name matching ${CREDENTIAL_REF_PATTERN}, never a secret value`,
    );
  return {
    source_id: String(source_id),
    adapter: String(adapter),
    options: isObject(options) ? options : {},
    ...(typeof credential_ref === 'string' ? { credential_ref } : {}),
    ...(cache === undefined ? {} : { cache }),
  };
}

function context(value: unknown, at: string, sourceIds: Set<string>, problems: string[]): ContextDefinition {
  const v = isObject(value) ? value : {};
  if (!isObject(value)) problems.push(`${at} must be an object`);
  const handle = v['context_handle'];
  if (typeof handle !== 'string' || !CONTEXT_HANDLE_PATTERN.test(handle))
    problems.push(`${at}.context_handle must match ${CONTEXT_HANDLE_PATTERN} (128+ random bits)`);
  for (const key of CONTEXT_TEXT)
    if (!isText(v[key])) problems.push(`${at}.${key} must be a non-empty string`);
  if (typeof v['is_default'] !== 'boolean') problems.push(`${at}.is_default must be a boolean`);
  const operations = strings(v['operations'], `${at}.operations`, ID, problems);
  const ids = strings(v['source_ids'], `${at}.source_ids`, ID, problems);
  for (const id of ids) if (!sourceIds.has(id)) problems.push(`${at}.source_ids: unknown source "${id}"`);
  const timeout = v['source_timeout_ms'];
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && (timeout as number) > 0))
    problems.push(`${at}.source_timeout_ms must be a positive integer`);
  return {
    context_handle: String(handle),
    organization_name: String(v['organization_name']),
    application_name: String(v['application_name']),
    installation_name: String(v['installation_name']),
    role_label: String(v['role_label']),
    is_default: v['is_default'] === true,
    operations,
    source_ids: ids,
    ...(typeof timeout === 'number' ? { source_timeout_ms: timeout } : {}),
  };
}

function principal(
  value: unknown,
  at: string,
  handles: Set<string>,
  problems: string[],
): PrincipalDefinition {
  const v = isObject(value) ? value : {};
  if (!isObject(value)) problems.push(`${at} must be an object`);
  const subject = v['subject'];
  if (typeof subject !== 'string' || !ID.test(subject)) problems.push(`${at}.subject must match ${ID}`);
  const grants = strings(v['grants'], `${at}.grants`, CONTEXT_HANDLE_PATTERN, problems);
  for (const handle of grants)
    if (!handles.has(handle)) problems.push(`${at}.grants: unknown context "${handle}"`);
  if (new Set(grants).size !== grants.length) problems.push(`${at}.grants has a duplicate handle`);
  return { subject: String(subject), grants };
}
