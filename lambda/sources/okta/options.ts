/**
 * The `okta` adapter kind's options (Okta Users API with an OAuth service app), as a directory source
 * definition writes them, checked all at once: every problem names its option. The service app's private
 * key is the definition's `credential_ref`, never an option.
 *
 * ```json
 * { "source_id": "acme-okta", "adapter": "okta", "credential_ref": "ACME_OKTA_PRIVATE_KEY",
 *   "options": { "org_url": "https://acme.okta.com", "client_id": "0oa1b2c3d4", "key_id": "svc-key-1" } }
 * ```
 */
import { parseClientCredentialsOptions, providerUrl } from '../oauth/options.js';
import type { ClientCredentialsOptions } from '../oauth/options.js';
import { SourceConfigError } from '../registry/errors.js';
import type { SourceSpec } from '../registry/types.js';

/** The adapter kind this module builds. */
export const OKTA_ADAPTER = 'okta';
/** Okta's largest `limit` for List Users. */
export const OKTA_MAX_LIMIT = 200;
/** The scope that reads users; Okta grants `okta.*` scopes only to apps using `private_key_jwt`. */
export const OKTA_USERS_SCOPE = 'okta.users.read';

/** Validated options of one Okta source. */
export interface OktaSourceOptions {
  /** The org URL (origin only), e.g. `https://acme.okta.com`. */
  readonly orgUrl: URL;
  readonly oauth: ClientCredentialsOptions;
  readonly sourceType: string;
  /** `limit` of each page (1–200). */
  readonly pageSize: number;
  readonly timeoutMs?: number;
}

const KEYS = [
  'org_url',
  'client_id',
  'auth_method',
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

/** Reads an `okta` definition's options; throws {@link SourceConfigError} listing every problem. */
export function oktaOptionsFromSpec(spec: SourceSpec, allowLoopbackHttp: boolean): OktaSourceOptions {
  const o = spec.options;
  const problems: string[] = [];
  for (const key of Object.keys(o))
    if (!KEYS.includes(key)) problems.push(`options.${key} is not an okta option`);
  const org = providerUrl(o['org_url'], 'options.org_url', problems, allowLoopbackHttp);
  if (org !== undefined && (org.pathname !== '/' || org.search !== ''))
    problems.push('options.org_url must be the org URL only, e.g. https://acme.okta.com');
  const oauth = parseClientCredentialsOptions(
    {
      token_url: o['token_url'] ?? (org === undefined ? undefined : `${org.origin}/oauth2/v1/token`),
      client_id: o['client_id'],
      auth_method: o['auth_method'] ?? 'private_key_jwt',
      scopes: o['scopes'] ?? [OKTA_USERS_SCOPE],
      ...Object.fromEntries(
        ['resource', 'assertion_alg', 'key_id'].filter((k) => o[k] !== undefined).map((k) => [k, o[k]]),
      ),
    },
    'options',
    problems,
    allowLoopbackHttp,
  );
  const sourceType = o['source_type'] ?? 'okta';
  if (typeof sourceType !== 'string' || !NAME.test(sourceType))
    problems.push(`options.source_type must match ${NAME}`);
  const pageSize = o['page_size'] ?? OKTA_MAX_LIMIT;
  if (!(
    Number.isSafeInteger(pageSize) &&
    (pageSize as number) >= 1 &&
    (pageSize as number) <= OKTA_MAX_LIMIT
  ))
    problems.push(`options.page_size must be an integer from 1 to ${OKTA_MAX_LIMIT}`);
  const timeout = o['timeout_ms'];
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && (timeout as number) > 0))
    problems.push('options.timeout_ms must be a positive integer');
  if (spec.credential === undefined) problems.push('an okta source needs a credential_ref (the private key)');
  if (problems.length > 0 || org === undefined || oauth === undefined)
    throw new SourceConfigError(spec.source_id, 'invalid_options', problems);
  return {
    orgUrl: new URL(org.origin),
    oauth,
    sourceType: sourceType as string,
    pageSize: pageSize as number,
    ...(typeof timeout === 'number' ? { timeoutMs: timeout } : {}),
  };
}
