/**
 * The shared adapter contract for the `okta` adapter against the Okta replay, with service-app tokens
 * from a real `oidc-provider` (private_key_jwt). Okta's search here is a prefix match (`sw`) on first
 * name, last name, email and login, so that is the filter oracle. The replay leaves DEPROVISIONED users out
 * of a plain list, as Okta does, so "reads every person" holds only for an adapter that asks with a filter.
 */
import { exportPKCS8, generateKeyPair } from 'jose';
import { createOktaSource, oktaOptionsFromSpec } from '../../../lambda/sources/okta/index.js';
import { staticCredential } from '../../helpers/oauth-vendors.js';
import { adapterContract } from './adapter-contract.js';
import { oauthHarness, startsWith } from './oauth-harness.js';

// A key the authorization server has never seen: the service app's assertion is refused.
const unregistered = await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey);

adapterContract(
  'okta',
  oauthHarness({
    switches: (v) => v.okta.switches,
    seen: (v) => v.okta.seen,
    people: (v) => v.okta.people,
    adapter(vendors, variant = {}, down) {
      vendors.okta.switches.foreignIdentity = variant.foreignRecords === true;
      const spec = vendors.oktaSpec(
        down ? { org_url: 'http://127.0.0.1:9' } : {},
        staticCredential('ACME_OKTA_KEY', variant.badCredential === true ? unregistered : vendors.oktaKey),
      );
      return createOktaSource(spec, oktaOptionsFromSpec(spec, true), {
        allowLoopbackHttp: true,
        ...(variant.log === undefined ? {} : { log: variant.log }),
      });
    },
    searchMatches: (person, text) => {
      const words = text.trim().split(/\s+/);
      return (
        [person.givenName, person.familyName, person.email, person.userName].some((v) =>
          startsWith(v, text),
        ) ||
        (words.length === 2 &&
          startsWith(person.givenName, words[0]!) &&
          startsWith(person.familyName, words[1]!))
      );
    },
    secrets: (v) => [
      v.oktaKey.slice(40, 100),
      unregistered.slice(40, 100),
      'API call exceeded rate limit',
      'Invalid token provided',
      'E0000047',
    ],
  }),
);
