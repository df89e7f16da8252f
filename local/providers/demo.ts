/**
 * The local providers `npm start` runs beside the fixtures: the SCIM server always, slapd when it is
 * installed (otherwise the LDAP source is left out, and a log line says so). Returns where they listen,
 * the function environment carrying their credentials (`BOS_SECRET_<NAME>`, never written to disk) and
 * how to stop them.
 */
import { DEMO_LDAP_CREDENTIAL_REF, DEMO_SCIM_CREDENTIAL_REF } from '../../lambda/bos/index.js';
import type { DemoProviders } from '../../lambda/bos/index.js';
import { log } from '../log.js';
import { slapdPath, startSlapd } from './ldap/index.js';
import { startScimServer } from './scim/index.js';

/** The running demo providers. */
export interface RunningDemoProviders {
  readonly providers: DemoProviders;
  readonly environment: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Starts the SCIM server and, when installed, slapd, on free loopback ports. */
export async function startDemoProviders(): Promise<RunningDemoProviders> {
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
  log('info', 'local providers started', {
    scim: scim.baseUrl,
    ...(providers.ldap === undefined ? {} : { ldap: providers.ldap.url }),
  });
  return {
    providers,
    environment,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}
