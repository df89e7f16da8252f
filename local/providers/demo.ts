/**
 * The local providers `npm start` runs beside the fixtures: the SCIM server, the local authorization
 * server (`oidc-provider`) with the Graph replay behind it, slapd when it is installed and Samba AD DC when
 * it can run (otherwise their source is left out, and a log line says why). Returns where they listen,
 * the function environment carrying their credentials (`BOS_SECRET_<NAME>`, never written to disk) and
 * how to stop them.
 */
import { randomBytes } from 'node:crypto';
import {
  DEMO_AD_CREDENTIAL_REF,
  DEMO_ENTRA_CREDENTIAL_REF,
  DEMO_LDAP_CREDENTIAL_REF,
  DEMO_SCIM_CREDENTIAL_REF,
} from '../../lambda/bos/index.js';
import type { DemoProviders } from '../../lambda/bos/index.js';
import { log } from '../log.js';
import { startAdDemo } from './ad/demo.js';
import { slapdPath, startSlapd } from './ldap/index.js';
import { startGraphReplay } from './graph/server.js';
import { startAuthorizationServer } from './oauth/authorization-server.js';
import { startScimServer } from './scim/index.js';

/** The demo Entra tenant and app registration (made-up ids; the Graph replay serves this tenant). */
const DEMO_TENANT_ID = '6f1c2a9e-7d1b-4c3e-9a55-0de0acme0001';
const DEMO_ENTRA_CLIENT_ID = 'acme-people-reader';

/** The running demo providers. */
export interface RunningDemoProviders {
  readonly providers: DemoProviders;
  readonly environment: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * Starts the SCIM server and, when installed, slapd, on free loopback ports; Samba AD DC (fixed ports) only
 * when asked for.
 */
export async function startDemoProviders(
  options: { activeDirectory?: boolean } = {},
): Promise<RunningDemoProviders> {
  const scim = await startScimServer();
  const environment: Record<string, string> = { [`BOS_SECRET_${DEMO_SCIM_CREDENTIAL_REF}`]: scim.token };
  let providers: DemoProviders = { scim: { baseUrl: scim.baseUrl } };
  const closers: Array<() => Promise<void>> = [() => scim.close()];
  if (slapdPath() === undefined) {
    log('warn', 'LDAP source acme-ldap left out: slapd is not installed (apt-get install slapd ldap-utils)');
  } else {
    try {
      const ldap = await startSlapd();
      closers.push(() => ldap.stop());
      environment[`BOS_SECRET_${DEMO_LDAP_CREDENTIAL_REF}`] = ldap.bindPassword;
      providers = { ...providers, ldap: { url: ldap.url, baseDn: ldap.baseDn, bindDn: ldap.bindDn } };
    } catch (error) {
      log('warn', 'LDAP source acme-ldap left out: slapd did not start', {
        error: error instanceof Error ? error.message.slice(0, 200) : String(error),
      });
    }
  }
  const ad = options.activeDirectory === true ? await startAdDemo() : undefined;
  if (ad !== undefined) {
    closers.push(() => ad.stop());
    environment[`BOS_SECRET_${DEMO_AD_CREDENTIAL_REF}`] = ad.bindPassword;
    providers = {
      ...providers,
      ad: {
        url: ad.ldapsUrl,
        baseDn: ad.baseDn,
        bindDn: ad.bindDn,
        caPem: ad.caPem,
        tlsServerName: ad.tlsServerName,
      },
    };
  }
  const entra = await startEntraDemo();
  closers.push(entra.close);
  environment[`BOS_SECRET_${DEMO_ENTRA_CREDENTIAL_REF}`] = entra.secret;
  providers = { ...providers, entra: entra.provider };
  log('info', 'local providers started', {
    entra: entra.provider.graphUrl,
    authorization_server: entra.provider.tokenUrl,
    scim: scim.baseUrl,
    ...(providers.ldap === undefined ? {} : { ldap: providers.ldap.url }),
    ...(providers.ad === undefined ? {} : { ad: providers.ad.url }),
  });
  return {
    providers,
    environment,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}

/**
 * `oidc-provider` with one client-credentials app (a random secret per start), and the Graph replay that
 * accepts its tokens. Half of the replayed tenant's people are `acme-hr` people (same email).
 */
async function startEntraDemo() {
  const secret = randomBytes(24).toString('base64url');
  const as = await startAuthorizationServer({
    clients: [
      {
        clientId: DEMO_ENTRA_CLIENT_ID,
        authMethod: 'client_secret_post',
        secret,
        scope: 'User.Read.All',
        tenantId: DEMO_TENANT_ID,
      },
    ],
  });
  try {
    const graph = await startGraphReplay({
      issuer: as.issuer,
      jwksUrl: as.jwksUrl,
      tenantId: DEMO_TENANT_ID,
      people: { name: 'acme-entra', size: 300, overlap: 150, overlapOffset: 40 },
    });
    as.addResource({ resource: graph.resource, scope: 'User.Read.All' });
    return {
      secret,
      provider: {
        tenantId: DEMO_TENANT_ID,
        clientId: DEMO_ENTRA_CLIENT_ID,
        graphUrl: graph.graphUrl,
        tokenUrl: as.tokenUrl,
        resource: graph.resource,
      },
      close: async () => {
        await graph.close();
        await as.close();
      },
    };
  } catch (error) {
    await as.close();
    throw error;
  }
}
