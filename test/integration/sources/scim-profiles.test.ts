/**
 * Restricted-server profiles of the local SCIM server against the full-featured one as the oracle: a
 * server that accepts only `eq` on user name, emails and externalId (joined with `and`) and refuses `co`
 * and `ge` with `400 invalidFilter`; one without `/ServiceProviderConfig` (404); one that spells attribute
 * names and schema URNs in other cases; and all three at once. Each federated read returns the same people
 * through the `scim` adapter as against the full-featured server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runFederation } from '../../../lambda/federation/index.js';
import type { FederationResult, SourceQuery } from '../../../lambda/federation/index.js';
import type { SourceSpec } from '../../../lambda/sources/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../../lambda/sources/scim/index.js';
import { startScimServer } from '../../../local/providers/scim/index.js';
import type { ScimProfile, ScimServer } from '../../../local/providers/scim/index.js';
import type { ProviderPerson } from '../../../local/providers/population.js';
import { TRICKY_PERSON } from './adapter-contract.js';

/** People whose names a filter and a local match could read differently. */
const UNUSUAL: ProviderPerson[] = [
  TRICKY_PERSON,
  {
    ...TRICKY_PERSON,
    id: 'u999002',
    userName: 'renee.decomposed@example.com',
    email: 'renee.decomposed@example.com',
    givenName: 'Rene\u0301e',
    familyName: 'Strau\u00df',
    displayName: 'Rene\u0301e Strau\u00df',
  },
];

async function read(server: ScimServer, query: SourceQuery): Promise<FederationResult> {
  const spec: SourceSpec = {
    source_id: 'acme-scim',
    adapter: 'scim',
    options: { base_url: server.baseUrl, page_size: 120 },
    credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(server.token) },
  };
  return runFederation({
    sources: [createScimSource(spec, scimOptionsFromSpec(spec, true), { allowLoopbackHttp: true })],
    query,
    deadline: Date.now() + 20_000,
  });
}

/** What a result says about people: each record's provenance ids and email, in a stable order. */
const people = (result: FederationResult) => ({
  completeness: result.metadata.completeness,
  records: result.records.map((r) => `${r.sources.map((s) => s.external_id).join('+')} ${r.email}`).sort(),
});

const PROFILES: Record<string, Partial<ScimProfile>> = {
  'eq-only filters': { eqOnly: true },
  'no /ServiceProviderConfig': { noServiceProviderConfig: true },
  'attribute names in other cases': { otherCase: true },
  'all three restrictions': { eqOnly: true, noServiceProviderConfig: true, otherCase: true },
};

describe('the scim adapter against restricted SCIM servers', { timeout: 120_000 }, () => {
  let full: ScimServer;
  const servers: ScimServer[] = [];
  before(async () => {
    full = await startScimServer({ extraPeople: UNUSUAL });
    servers.push(full);
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  for (const [name, profile] of Object.entries(PROFILES))
    describe(`a server with ${name}`, () => {
      let restricted: ScimServer;
      before(async () => {
        // A server of its own per profile: what the adapter learns is kept per base URL.
        restricted = await startScimServer({ extraPeople: UNUSUAL });
        Object.assign(restricted.behaviour.profile, profile);
        servers.push(restricted);
      });

      const same = async (query: SourceQuery) => {
        const [want, got] = await Promise.all([read(full, query), read(restricted, query)]);
        assert.equal(want.metadata.completeness, 'complete', 'the oracle read completes');
        assert.ok(want.records.length > 0, 'the oracle finds someone');
        assert.deepEqual(people(got), people(want), JSON.stringify(query));
      };

      it('search_people finds the same people, for words, whole emails, syntax and Unicode', async () => {
        const someone = full.people[7]!;
        for (const query of [
          someone.familyName,
          someone.email,
          someone.email.toUpperCase(),
          'O\'Hara (x*y) "Q"',
          'back\\slash',
          'ren\u00e9e',
          'STRAUSS',
        ])
          await same({ operation: 'search_people', query });
      });

      it('list_people reads every person', () => same({ operation: 'list_people' }));

      it('list_people with updated_since reads the people changed since', async () => {
        const times = full.people.map((p) => p.lastModified).sort();
        await same({ operation: 'list_people', updated_since: times[Math.floor(times.length / 2)]! });
      });

      it('get_person finds the person of a record_ref', async () => {
        const found = await read(full, { operation: 'search_people', query: full.people[3]!.email });
        const ref = found.records[0]?.record_ref;
        assert.ok(ref !== undefined);
        await same({ operation: 'get_person', record_ref: ref });
      });
    });
});
