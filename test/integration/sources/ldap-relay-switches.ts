/**
 * The adapter contract's wire switches for an LDAP directory read through the loopback relay
 * (`local/providers/ldap/relay.ts`): the same for slapd and for Samba AD DC.
 */
import type { LdapRelay } from '../../../local/providers/ldap/index.js';
import type { AdapterHarness } from './adapter-contract.js';

/** holdLaterPages, slow, down, abortsSeen, and the relay's part of reset. */
export function relaySwitches(
  relay: () => LdapRelay,
): Pick<AdapterHarness, 'holdLaterPages' | 'slow' | 'down' | 'abortsSeen'> & { resetRelay(): Promise<void> } {
  return {
    holdLaterPages() {
      const wire = relay();
      // Forwarded: the bind and the first page's search request; held: the next page's request.
      wire.behaviour.holdRequestsAfter = 2;
      return { release: () => wire.release(), heldSince: () => wire.held() > 0 };
    },
    slow(fromPage) {
      relay().behaviour.holdRequestsAfter = fromPage;
    },
    down: () => relay().setDown(true),
    async resetRelay() {
      const wire = relay();
      wire.release();
      wire.behaviour.delayMs = 0;
      await wire.setDown(false);
    },
    abortsSeen: () => relay().clientAborts(),
  };
}
