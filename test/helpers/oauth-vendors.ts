/**
 * The client-credentials vendors on loopback for adapter tests: a real authorization server
 * (`oidc-provider`), the Graph replay and the Okta replay, with registered clients for each case (a good
 * app, an app of another tenant, an app without the read scope) and source specs pointing at them.
 */
import { exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import type { ProviderCredential, SourceSpec } from '../../lambda/sources/index.js';
import { startAuthorizationServer } from '../../local/providers/oauth/authorization-server.js';
import type { AuthorizationServer } from '../../local/providers/oauth/authorization-server.js';
import { startGraphReplay } from '../../local/providers/graph/server.js';
import type { GraphReplay } from '../../local/providers/graph/server.js';
import { startOktaReplay } from '../../local/providers/okta/server.js';
import type { OktaReplay } from '../../local/providers/okta/server.js';
import type { ProviderPerson } from '../../local/providers/population.js';

/** The tenant the Entra source is configured for. */
export const TENANT = '6f1c2a9e-0000-4000-8000-00000000acme';
/** Secrets that must never show up in a frame, error or log line. */
export const ENTRA_SECRET = 'entra-client-secret-0123456789-ABCDEFGHIJ';

/** A credential bound to a fixed value, printed by name only (as the directory's `SourceCredential`). */
export function staticCredential(name: string, value: string): ProviderCredential {
  const shown = `[credential ${name}]`;
  return {
    name,
    value: () => Promise.resolve(value),
    toJSON: () => shown,
    toString: () => shown,
    [Symbol.for('nodejs.util.inspect.custom')]: () => shown,
  } as ProviderCredential;
}

/** The running vendors. */
export interface OAuthVendors {
  readonly as: AuthorizationServer;
  readonly graph: GraphReplay;
  readonly okta: OktaReplay;
  /** The Okta service app's private key (PKCS #8 PEM), a secret like the others. */
  readonly oktaKey: string;
  /** An `entra` spec for the good app; `options` and `credential` overridable. */
  entraSpec(options?: Record<string, unknown>, credential?: ProviderCredential): SourceSpec;
  /** An `okta` spec for the good service app. */
  oktaSpec(options?: Record<string, unknown>, credential?: ProviderCredential): SourceSpec;
  /** Every switch back at rest. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts all three on 127.0.0.1 with `count` seeded people each, plus `extraPeople`; `graphVendorShapes`
 * gives some Graph users the documented shapes of `local/providers/graph/users.ts` (null mail and names,
 * guests), which the adapter contract's email oracle does not expect.
 */
export async function startOAuthVendors(
  count = 250,
  extraPeople: readonly ProviderPerson[] = [],
  options: { readonly graphVendorShapes?: boolean } = {},
): Promise<OAuthVendors> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const oktaKey = await exportPKCS8(privateKey);
  const jwk = { ...(await exportJWK(publicKey)), kid: 'okta-svc-1', alg: 'RS256', use: 'sig' };
  const as = await startAuthorizationServer({
    clients: [
      {
        clientId: 'entra-app',
        authMethod: 'client_secret_post',
        secret: ENTRA_SECRET,
        scope: 'User.Read.All',
        tenantId: TENANT,
      },
      {
        clientId: 'entra-foreign-app',
        authMethod: 'client_secret_post',
        secret: ENTRA_SECRET,
        scope: 'User.Read.All',
        tenantId: 'another-tenant',
      },
      {
        clientId: 'okta-svc',
        authMethod: 'private_key_jwt',
        jwks: { keys: [jwk] },
        scope: 'okta.users.read',
      },
      {
        clientId: 'okta-groups-svc',
        authMethod: 'private_key_jwt',
        jwks: { keys: [jwk] },
        scope: 'okta.groups.read',
      },
    ],
  });
  const graph = await startGraphReplay({
    issuer: as.issuer,
    jwksUrl: as.jwksUrl,
    tenantId: TENANT,
    people: { name: 'acme-entra', size: count },
    extraPeople,
    vendorShapes: options.graphVendorShapes ?? false,
  });
  const okta = await startOktaReplay({
    issuer: as.issuer,
    jwksUrl: as.jwksUrl,
    people: { name: 'acme-okta', size: count },
    extraPeople,
  });
  as.addResource({ resource: graph.resource, scope: 'User.Read.All' });
  as.addResource({ resource: okta.origin, scope: 'okta.users.read okta.groups.read' });

  const reset = () => {
    for (const switches of [graph.switches, okta.switches]) {
      Object.assign(switches, {
        mode: 'ok',
        retryAfterS: 30,
        delayMs: 0,
        laterPageDelayMs: 0,
        foreignIdentity: false,
        emptyPages: false,
      });
      switches.script.length = 0;
    }
    graph.tenant.advancedQueries = true;
    graph.deltaPageSize = 100;
    as.unavailable = false;
    as.delayMs = 0;
  };
  return {
    as,
    graph,
    okta,
    oktaKey,
    entraSpec: (options = {}, credential = staticCredential('ACME_ENTRA_SECRET', ENTRA_SECRET)) => ({
      source_id: 'acme-entra',
      adapter: 'entra',
      credential,
      options: {
        tenant_id: TENANT,
        client_id: 'entra-app',
        graph_url: graph.graphUrl,
        token_url: as.tokenUrl,
        scopes: ['User.Read.All'],
        resource: graph.resource,
        page_size: 100,
        ...options,
      },
    }),
    oktaSpec: (options = {}, credential = staticCredential('ACME_OKTA_KEY', oktaKey)) => ({
      source_id: 'acme-okta',
      adapter: 'okta',
      credential,
      options: {
        org_url: okta.origin,
        client_id: 'okta-svc',
        token_url: as.tokenUrl,
        resource: okta.origin,
        key_id: 'okta-svc-1',
        page_size: 100,
        ...options,
      },
    }),
    reset,
    close: async () => {
      await Promise.all([graph.close(), okta.close(), as.close()]);
    },
  };
}
