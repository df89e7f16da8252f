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
import { clientCredentialFields, providerUrlType, readClientCredentialKind } from '../oauth/options.js';
import type { ClientCredentialsOptions } from '../oauth/options.js';
import {
  integer,
  option,
  optionTable,
  sourceTypeOption,
  text,
  timeoutOption,
} from '../registry/option-table.js';
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

/** The `entra` kind's options. */
export const ENTRA_OPTIONS = optionTable(ENTRA_ADAPTER, {
  tenant_id: option(text(/^[A-Za-z0-9][A-Za-z0-9.-]{0,127}$/, 'the directory (tenant) id'), {
    required: true,
    meaning: 'the directory (tenant) id; tokens must carry it as `tid`',
  }),
  ...clientCredentialFields({
    authMethod: 'client_secret_post',
    scopes: [GRAPH_DEFAULT_SCOPE],
    tokenUrlText: '`https://login.microsoftonline.com/<tenant_id>/oauth2/v2.0/token`',
    clientIdMeaning: "the app registration's application (client) id",
  }),
  graph_url: option(providerUrlType(), {
    default: new URL(GRAPH_URL),
    meaning: "Graph's versioned base URL",
  }),
  page_size: option(integer(1, GRAPH_MAX_TOP), {
    default: GRAPH_MAX_TOP,
    meaning: '`$top` of each Graph page (delivered to clients 100 at a time)',
  }),
  source_type: sourceTypeOption('entra'),
  timeout_ms: timeoutOption,
});

/** Reads an `entra` definition's options; throws `SourceConfigError` listing every problem. */
export function entraOptionsFromSpec(spec: SourceSpec, allowLoopbackHttp: boolean): EntraSourceOptions {
  const { values: o, oauth } = readClientCredentialKind(ENTRA_OPTIONS, spec, allowLoopbackHttp, {
    tokenUrl: ({ tenant_id: tenant }) =>
      new URL(`https://login.microsoftonline.com/${encodeURIComponent(tenant)}/oauth2/v2.0/token`),
    missingCredential: 'an entra source needs a credential_ref (client secret or private key)',
  });
  return {
    tenantId: o.tenant_id,
    graphUrl: new URL(o.graph_url.href.replace(/\/+$/, '')),
    oauth,
    sourceType: o.source_type,
    pageSize: o.page_size,
    ...(o.timeout_ms === undefined ? {} : { timeoutMs: o.timeout_ms }),
  };
}
