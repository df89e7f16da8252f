/**
 * The shared adapter contract for the `http-json` adapter, declared as an operator would declare a REST
 * JSON source: here over the Okta replay's `/api/v1/users` (Link-header paging, `q` prefix search, the
 * broker's `private_key_jwt` tokens from a real `oidc-provider`), with a field mapping and an identity rule
 * on each user's self link.
 */
import { exportPKCS8, generateKeyPair } from 'jose';
import { createHttpJsonSource, httpJsonOptionsFromSpec } from '../../../lambda/sources/http-json/index.js';
import type { SourceSpec } from '../../../lambda/sources/index.js';
import { oktaStatus } from '../../../local/providers/okta/users.js';
import { staticCredential } from '../../helpers/oauth-vendors.js';
import { adapterContract } from './adapter-contract.js';
import { oauthHarness, startsWith } from './oauth-harness.js';

const unregistered = await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey);

adapterContract(
  'http-json',
  oauthHarness({
    switches: (v) => v.okta.switches,
    seen: (v) => v.okta.seen,
    people: (v) => v.okta.people,
    adapter(vendors, variant = {}, down) {
      vendors.okta.switches.foreignIdentity = variant.foreignRecords === true;
      const base = down ? 'http://127.0.0.1:9' : vendors.okta.origin;
      const spec: SourceSpec = {
        source_id: 'acme-people-api',
        adapter: 'http-json',
        credential: staticCredential(
          'ACME_PEOPLE_API_KEY',
          variant.badCredential === true ? unregistered : vendors.oktaKey,
        ),
        options: {
          base_url: base,
          operations: {
            // Okta's plain list leaves DEPROVISIONED users out; a filter every user meets keeps them.
            list_people: `/api/v1/users?limit=100&filter=${encodeURIComponent('lastUpdated gt "1970-01-01T00:00:00.000Z"')}`,
            search_people: '/api/v1/users?q={query}&limit=100',
          },
          auth: {
            kind: 'oauth',
            token_url: vendors.as.tokenUrl,
            client_id: 'okta-svc',
            auth_method: 'private_key_jwt',
            scopes: ['okta.users.read'],
            resource: vendors.okta.origin,
            key_id: 'okta-svc-1',
          },
          pagination: { kind: 'link_header' },
          records_path: '',
          fields: {
            external_id: 'id',
            display_name: 'profile.login',
            email: 'profile.email',
            phone: 'profile.mobilePhone',
            lifecycle: 'status',
            observed_at: 'lastUpdated',
            attributes: { first_name: 'profile.firstName', last_name: 'profile.lastName' },
          },
          identity: { path: '_links.self.href', prefix: `${vendors.okta.origin}/` },
          source_type: 'people-api',
        },
      };
      return createHttpJsonSource(spec, httpJsonOptionsFromSpec(spec, true), {
        allowLoopbackHttp: true,
        ...(variant.log === undefined ? {} : { log: variant.log }),
      });
    },
    // The replayed Okta `q`: a prefix of first name, last name or email, DEPROVISIONED users left out.
    searchMatches: (person, text) =>
      oktaStatus(person) !== 'DEPROVISIONED' &&
      [person.givenName, person.familyName, person.email].some((v) => startsWith(v, text)),
    secrets: (v) => [
      v.oktaKey.slice(40, 100),
      unregistered.slice(40, 100),
      'API call exceeded rate limit',
      'E0000047',
    ],
  }),
);
