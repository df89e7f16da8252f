/**
 * The shared adapter contract for the `ldap` adapter against a real OpenLDAP slapd
 * (`local/providers/ldap`), reached through a loopback relay that can slow, hold or drop the wire. The
 * directory itself answers 51 busy (slapo-retcode) and returns an entry outside the searched base (a
 * suffix alias on slapd-relay and slapo-rwm that leaves result DNs unrewritten).
 * Skipped, with the reason printed, when slapd is not installed.
 */
import { createLdapSource, ldapOptionsFromSpec } from '../../../lambda/sources/ldap/index.js';
import type { SourceSpec } from '../../../lambda/sources/index.js';
import { slapdPath, startSlapd } from '../../../local/providers/ldap/index.js';
import type { LocalSlapd } from '../../../local/providers/ldap/index.js';
import { adapterContract, TRICKY_PERSON } from './adapter-contract.js';
import { relaySwitches } from './ldap-relay-switches.js';

let slapd: LocalSlapd | undefined;
const running = (): LocalSlapd => {
  if (slapd === undefined) throw new Error('slapd is not running');
  return slapd;
};

const switches = relaySwitches(() => running().relay);

adapterContract('ldap', {
  skipReason: () =>
    slapdPath() === undefined ? 'slapd is not installed (apt-get install slapd ldap-utils)' : undefined,
  async start() {
    slapd = await startSlapd({ extraPeople: [TRICKY_PERSON] });
  },
  stop: () => running().stop(),
  adapter(variant = {}) {
    const ldap = running();
    const spec: SourceSpec = {
      source_id: 'acme-ldap',
      adapter: 'ldap',
      options: {
        url: ldap.url,
        base_dn: variant.foreignRecords === true ? ldap.foreignBaseDn : ldap.baseDn,
        bind_dn: ldap.bindDn,
        page_size: 100,
      },
      credential: {
        name: 'ACME_LDAP_PASSWORD',
        value: () =>
          Promise.resolve(variant.badCredential === true ? 'wrong-password-5d2c' : ldap.bindPassword),
      },
    };
    return createLdapSource(spec, ldapOptionsFromSpec(spec), {
      allowLoopbackHttp: true,
      ...(variant.log === undefined ? {} : { log: variant.log }),
    });
  },
  people: () => running().people,
  providerPageSize: 100,
  ...switches,
  // Marks a person busy (slapo-retcode): slapd answers the search that reaches them with result 51.
  throttle: () => running().setBusy(true),
  async reset() {
    await switches.resetRelay();
    await running().setBusy(false);
  },
  secrets: () => [running().bindPassword, 'wrong-password-5d2c', 'nvalid credentials', 'nvalidCredentials'],
});
