/**
 * The shared adapter contract for the `entra` adapter against the Graph replay, with tokens from a real
 * `oidc-provider` (client_secret_post). Graph's search is a prefix match on displayName, mail and
 * userPrincipalName, so that is the filter oracle. The replay answers throttling, outages and errors with
 * Graph's documented bodies and headers (`local/providers/graph/payloads.ts`), whose text must never show.
 */
import { createEntraSource, entraOptionsFromSpec } from '../../../lambda/sources/entra/index.js';
import { ENTRA_SECRET, staticCredential } from '../../helpers/oauth-vendors.js';
import { adapterContract } from './adapter-contract.js';
import { oauthHarness, startsWith } from './oauth-harness.js';

const WRONG = 'wrong-entra-secret-7c1d-0123456789';

adapterContract(
  'entra',
  oauthHarness({
    switches: (v) => v.graph.switches,
    seen: (v) => v.graph.seen,
    people: (v) => v.graph.people,
    adapter(vendors, variant = {}, down) {
      const spec = vendors.entraSpec(
        {
          ...(variant.foreignRecords === true ? { client_id: 'entra-foreign-app' } : {}),
          ...(down ? { graph_url: 'http://127.0.0.1:9/v1.0' } : {}),
        },
        staticCredential('ACME_ENTRA_SECRET', variant.badCredential === true ? WRONG : ENTRA_SECRET),
      );
      return createEntraSource(spec, entraOptionsFromSpec(spec, true), {
        allowLoopbackHttp: true,
        ...(variant.log === undefined ? {} : { log: variant.log }),
      });
    },
    searchMatches: (person, text) =>
      /^@\S+$/.test(text.trim())
        ? person.email.toLowerCase().endsWith(text.trim().toLowerCase())
        : startsWith(person.displayName, text) ||
          startsWith(person.email, text) ||
          startsWith(`${person.email.split('@')[0]}@contoso.example`, text),
    secrets: () => [
      ENTRA_SECRET,
      WRONG,
      'Too many requests.',
      'Access token validation failure',
      'TooManyRequests',
      'Please retry again later.',
      'Tenant_Application',
      'serviceNotAvailable',
    ],
  }),
);
