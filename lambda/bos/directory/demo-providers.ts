/**
 * The demo directory with real record sources beside the fixtures: `acme-scim` (the HR system, SCIM 2.0),
 * `acme-ldap` (the corporate directory, LDAP), `acme-ad` (Active Directory over LDAPS) and `acme-entra` (Entra ID through a Graph replay, with
 * client-credentials tokens from a real authorization server). Their addresses are only known once the local providers
 * run (free loopback ports), so the local stack builds this document when it starts them and seeds it in
 * place of the plain demo document. Both serve people who are also `acme-hr` people (same email), so
 * the identity merge joins records across fixture, SCIM and LDAP sources.
 */
import { DEMO_DIRECTORY_DOCUMENT, DEMO_PEOPLE_CONTEXT_HANDLE } from './demo-directory.js';
import type { DirectoryDocument, SourceDefinition } from './document.js';

/** The credential `acme-scim` names (its bearer token): `BOS_SECRET_ACME_SCIM_TOKEN` locally. */
export const DEMO_SCIM_CREDENTIAL_REF = 'ACME_SCIM_TOKEN';
/** The credential `acme-ldap` names (its bind password): `BOS_SECRET_ACME_LDAP_PASSWORD` locally. */
export const DEMO_LDAP_CREDENTIAL_REF = 'ACME_LDAP_PASSWORD';

/** The credential `acme-ad` names (its bind password): `BOS_SECRET_ACME_AD_PASSWORD` locally. */
export const DEMO_AD_CREDENTIAL_REF = 'ACME_AD_PASSWORD';

/** The credential `acme-entra` names (its client secret): `BOS_SECRET_ACME_ENTRA_CLIENT_SECRET` locally. */
export const DEMO_ENTRA_CREDENTIAL_REF = 'ACME_ENTRA_CLIENT_SECRET';

/**
 * Real providers take longer than the fixtures' 1,500 ms context timeout on a busy machine (a SCIM list
 * is three provider pages): each real source has its own timeout.
 */
export const DEMO_PROVIDER_TIMEOUT_MS = 10_000;

/**
 * The source cache of the demo's SCIM and Entra sources (docs/cache.md): the local stack syncs them at start and
 * every minute, so a search streams their baseline pages first and then applies their changes.
 */
export const DEMO_SOURCE_CACHE = { enabled: true, refresh: 'PT1M', max_staleness: 'PT15M' } as const;

/** Where the running local providers are. */
export interface DemoProviders {
  readonly scim?: { readonly baseUrl: string };
  readonly ldap?: { readonly url: string; readonly baseDn: string; readonly bindDn: string };
  /** A domain controller over LDAPS, trusted through its own CA and the name its certificate carries. */
  readonly ad?: {
    readonly url: string;
    readonly baseDn: string;
    readonly bindDn: string;
    readonly caPem: string;
    readonly tlsServerName: string;
  };
  /** The Graph replay and the local authorization server that issues its app-only tokens. */
  readonly entra?: {
    readonly tenantId: string;
    readonly clientId: string;
    readonly graphUrl: string;
    readonly tokenUrl: string;
    readonly resource: string;
  };
}

/** The definitions of the running providers' sources. */
export function demoProviderSources(providers: DemoProviders): SourceDefinition[] {
  const sources: SourceDefinition[] = [];
  if (providers.scim !== undefined)
    sources.push({
      source_id: 'acme-scim',
      adapter: 'scim',
      options: { base_url: providers.scim.baseUrl, timeout_ms: DEMO_PROVIDER_TIMEOUT_MS },
      credential_ref: DEMO_SCIM_CREDENTIAL_REF,
      cache: DEMO_SOURCE_CACHE,
    });
  if (providers.ldap !== undefined)
    sources.push({
      source_id: 'acme-ldap',
      adapter: 'ldap',
      options: {
        url: providers.ldap.url,
        base_dn: providers.ldap.baseDn,
        bind_dn: providers.ldap.bindDn,
        timeout_ms: DEMO_PROVIDER_TIMEOUT_MS,
      },
      credential_ref: DEMO_LDAP_CREDENTIAL_REF,
    });
  if (providers.ad !== undefined)
    sources.push({
      source_id: 'acme-ad',
      adapter: 'ldap',
      options: {
        url: providers.ad.url,
        profile: 'active-directory',
        base_dn: providers.ad.baseDn,
        bind_dn: providers.ad.bindDn,
        tls_ca: providers.ad.caPem,
        tls_server_name: providers.ad.tlsServerName,
        timeout_ms: DEMO_PROVIDER_TIMEOUT_MS,
      },
      credential_ref: DEMO_AD_CREDENTIAL_REF,
    });
  if (providers.entra !== undefined)
    sources.push({
      source_id: 'acme-entra',
      adapter: 'entra',
      options: {
        tenant_id: providers.entra.tenantId,
        client_id: providers.entra.clientId,
        graph_url: providers.entra.graphUrl,
        token_url: providers.entra.tokenUrl,
        scopes: ['User.Read.All'],
        resource: providers.entra.resource,
        timeout_ms: DEMO_PROVIDER_TIMEOUT_MS,
      },
      credential_ref: DEMO_ENTRA_CREDENTIAL_REF,
      cache: DEMO_SOURCE_CACHE,
    });
  return sources;
}

/** The demo document plus the running providers' sources, read by the People Directory context. */
export function demoDirectoryWithProviders(
  providers: DemoProviders,
  document: DirectoryDocument = DEMO_DIRECTORY_DOCUMENT,
): DirectoryDocument {
  const added = demoProviderSources(providers);
  const ids = added.map((s) => s.source_id);
  return {
    ...document,
    sources: [...document.sources, ...added],
    contexts: document.contexts.map((context) =>
      context.context_handle === DEMO_PEOPLE_CONTEXT_HANDLE
        ? { ...context, source_ids: [...context.source_ids, ...ids] }
        : context,
    ),
  };
}
