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
import { clientCredentialFields, providerUrlType, readClientCredentialKind } from '../oauth/options.js';
import type { ClientCredentialsOptions } from '../oauth/options.js';
import { integer, option, optionTable, sourceTypeOption, timeoutOption } from '../registry/option-table.js';
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

/** The `okta` kind's options. */
export const OKTA_OPTIONS = optionTable(OKTA_ADAPTER, {
  org_url: option(providerUrlType({ originOnly: true }), {
    required: true,
    meaning: 'the org URL (origin only), e.g. `https://acme.okta.com`',
  }),
  ...clientCredentialFields({
    authMethod: 'private_key_jwt',
    scopes: [OKTA_USERS_SCOPE],
    tokenUrlText: '`<org_url>/oauth2/v1/token`',
    clientIdMeaning: "the service app's client id",
    authMethodMeaning: '`private_key_jwt`: Okta grants `okta.*` scopes only to it',
  }),
  page_size: option(integer(1, OKTA_MAX_LIMIT), { default: OKTA_MAX_LIMIT, meaning: '`limit` of each page' }),
  source_type: sourceTypeOption('okta'),
  timeout_ms: timeoutOption,
});

/** Reads an `okta` definition's options; throws `SourceConfigError` listing every problem. */
export function oktaOptionsFromSpec(spec: SourceSpec, allowLoopbackHttp: boolean): OktaSourceOptions {
  const { values: o, oauth } = readClientCredentialKind(OKTA_OPTIONS, spec, allowLoopbackHttp, {
    tokenUrl: ({ org_url: org }) => new URL('/oauth2/v1/token', org.origin),
    missingCredential: 'an okta source needs a credential_ref (the private key)',
  });
  return {
    orgUrl: new URL(o.org_url.origin),
    oauth,
    sourceType: o.source_type,
    pageSize: o.page_size,
    ...(o.timeout_ms === undefined ? {} : { timeoutMs: o.timeout_ms }),
  };
}
