/**
 * The `entra` adapter kind's options (Microsoft Entra ID through Microsoft Graph), as a directory source
 * definition writes them, checked all at once: every problem names its option. The client secret or
 * private key is the definition's `credential_ref`, never an option.
 *
 * ```json
 * { "source_id": "acme-entra", "adapter": "entra", "credential_ref": "ACME_ENTRA_CLIENT_SECRET",
 *   "options": { "tenant_id": "6f1c…", "client_id": "0b7e…", "auth_method": "client_secret_post" } }
 * ```
 */
import { parseClientCredentialsOptions, providerUrl } from '../oauth/options.js';
import type { ClientCredentialsOptions } from '../oauth/options.js';
import { SourceConfigError } from '../registry/errors.js';
import type { SourceSpec } from '../registry/types.js';

/** The adapter kind this module builds. */
export const ENTRA_ADAPTER = 'entra';

/** Graph's v1.0 endpoint. */
export const GRAPH_URL = 'https://graph.microsoft.com/v1.0';
/** The scope of an app-only token carrying the application permissions granted to the app. */
export const GRAPH_DEFAULT_SCOPE = 'https://graph.microsoft.com/.default';
/** Graph's largest `$top` for `/users`. */
export const GRAPH_MAX_TOP = 999;

/** Validated options of one Entra source. */
export interface EntraSourceOptions {
  readonly tenantId: string;
  /** `…/v1.0`, without a trailing slash. */
  readonly graphUrl: URL;
  readonly oauth: ClientCredentialsOptions;
  readonly sourceType: string;
  /** `$top` of each Graph page (1–999); the engine delivers them in pages of at most 100. */
  readonly pageSize: number;
  readonly timeoutMs?: number;
}

const KEYS = [
  'tenant_id',
  'client_id',
  'auth_method',
  'graph_url',
  'token_url',
  'scopes',
  'resource',
  'assertion_alg',
  'key_id',
  'source_type',
  'page_size',
  'timeout_ms',
];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;
const TENANT = /^[A-Za-z0-9][A-Za-z0-9.-]{0,127}$/;

/** Reads an `entra` definition's options; throws {@link SourceConfigError} listing every problem. */
export function entraOptionsFromSpec(spec: SourceSpec, allowLoopbackHttp: boolean): EntraSourceOptions {
  const o = spec.options;
  const problems: string[] = [];
  for (const key of Object.keys(o))
    if (!KEYS.includes(key)) problems.push(`options.${key} is not an entra option`);
  const tenantId = o['tenant_id'];
  if (typeof tenantId !== 'string' || !TENANT.test(tenantId))
    problems.push('options.tenant_id must be the directory (tenant) id');
  const graphUrl = providerUrl(o['graph_url'] ?? GRAPH_URL, 'options.graph_url', problems, allowLoopbackHttp);
  const tenant = typeof tenantId === 'string' ? encodeURIComponent(tenantId) : 'invalid';
  const oauth = parseClientCredentialsOptions(
    {
      token_url: o['token_url'] ?? `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/token`,
      client_id: o['client_id'],
      auth_method: o['auth_method'] ?? 'client_secret_post',
      scopes: o['scopes'] ?? [GRAPH_DEFAULT_SCOPE],
      ...pick(o, ['resource', 'assertion_alg', 'key_id']),
    },
    'options',
    problems,
    allowLoopbackHttp,
  );
  const sourceType = o['source_type'] ?? 'entra';
  if (typeof sourceType !== 'string' || !NAME.test(sourceType))
    problems.push(`options.source_type must match ${NAME}`);
  const pageSize = o['page_size'] ?? GRAPH_MAX_TOP;
  if (!(Number.isSafeInteger(pageSize) && (pageSize as number) >= 1 && (pageSize as number) <= GRAPH_MAX_TOP))
    problems.push(`options.page_size must be an integer from 1 to ${GRAPH_MAX_TOP}`);
  const timeout = o['timeout_ms'];
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && (timeout as number) > 0))
    problems.push('options.timeout_ms must be a positive integer');
  if (spec.credential === undefined)
    problems.push('an entra source needs a credential_ref (client secret or private key)');
  if (problems.length > 0 || graphUrl === undefined || oauth === undefined)
    throw new SourceConfigError(spec.source_id, 'invalid_options', problems);
  return {
    tenantId: tenantId as string,
    graphUrl: new URL(graphUrl.href.replace(/\/+$/, '')),
    oauth,
    sourceType: sourceType as string,
    pageSize: pageSize as number,
    ...(typeof timeout === 'number' ? { timeoutMs: timeout } : {}),
  };
}

function pick(o: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}
