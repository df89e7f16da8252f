/**
 * The shared adapter contract for the `ldap` adapter against a real OpenLDAP slapd
 * (`local/providers/ldap`), reached through a loopback relay that can slow, hold or drop the wire.
 * Skipped, with the reason printed, when slapd is not installed.
 */
import { createLdapSource, ldapOptionsFromSpec } from '../../../lambda/sources/ldap/index.js';
import type { SourceSpec } from '../../../lambda/sources/index.js';
import { slapdPath, startSlapd } from '../../../local/providers/ldap/index.js';
import type { LocalSlapd } from '../../../local/providers/ldap/index.js';
import { adapterContract, TRICKY_PERSON } from './adapter-contract.js';

let slapd: LocalSlapd | undefined;
const running = (): LocalSlapd => {
  if (slapd === undefined) throw new Error('slapd is not running');
  return slapd;
};

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
        base_dn: ldap.baseDn,
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
  holdLaterPages() {
    const { relay } = running();
    // Forwarded: the bind and the first page's search request; held: the next page's request.
    relay.behaviour.holdRequestsAfter = 2;
    return { release: () => relay.release(), heldSince: () => relay.held() > 0 };
  },
  slow(fromPage) {
    running().relay.behaviour.holdRequestsAfter = fromPage;
  },
  foreignRecordsSkipReason:
    'slapd returns only entries under the search base, and ldapts 8 does not send derefAliases (its SearchRequest drops the option), so no real slapd behaviour yields a foreign entry; the DN check is covered by test/unit/sources/ldap-adapter.test.ts',
  throttleSkipReason:
    'slapd has no setting that answers 51 busy; the mapping of 51 is covered by test/unit/sources/ldap-adapter.test.ts',
  down: () => running().relay.setDown(true),
  async reset() {
    const { relay } = running();
    relay.release();
    relay.behaviour.delayMs = 0;
    await relay.setDown(false);
  },
  abortsSeen: () => running().relay.clientAborts(),
  secrets: () => [running().bindPassword, 'wrong-password-5d2c', 'nvalid credentials', 'nvalidCredentials'],
});
