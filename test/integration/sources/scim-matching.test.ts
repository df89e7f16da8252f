/**
 * One matching semantics, whoever matches: over generated populations whose names, user names and emails
 * carry quotes, parentheses, backslashes, filter operator words, non-ASCII letters and decomposed
 * characters, the local SCIM server's own filter (`filter: "server"`: the adapter's `co` filter, matched
 * by SCIMMY) and the kernel's local matching over a listing (`filter: "local"`) find the same people.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { runFederation } from '../../../lambda/federation/index.js';
import type { SourceQuery } from '../../../lambda/federation/index.js';
import type { SourceSpec } from '../../../lambda/sources/index.js';
import { createScimSource, scimOptionsFromSpec } from '../../../lambda/sources/scim/index.js';
import { startScimServer } from '../../../local/providers/scim/index.js';
import type { ScimServer } from '../../../local/providers/scim/index.js';
import type { ProviderPerson } from '../../../local/providers/population.js';

/** Pieces of text that filters, escaping and caseless comparison could each read differently. */
const PIECES = [
  'a',
  'Ann',
  'ann',
  'Ré',
  'Re\u0301',
  'RÉ',
  'ß',
  'SS',
  'ẞ',
  'ﬁ',
  'fi',
  'Σ',
  'ς',
  'σ',
  'Ａ',
  'é',
  '漢',
  '😀',
  '"',
  "'",
  '(',
  ')',
  '\\',
  '*',
  ' or ',
  ' and ',
  'eq',
  ' co ',
  'pr',
  '[',
  ']',
  '.',
  '@',
  ' ',
];
const text = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }).map((p) => p.join(''));

const person = (
  i: number,
  given: string,
  family: string,
  userName: string,
  mailbox: string,
): ProviderPerson => ({
  id: `u${String(900_000 + i)}`,
  userName,
  givenName: given,
  familyName: family,
  displayName: `${given} ${family}`,
  email: `${mailbox}.${i}@example.com`,
  phone: `+1999000${String(1000 + i)}`,
  title: 'Analyst',
  department: 'Legal',
  active: true,
  lastModified: '2026-10-01T00:00:00Z',
});

const population = fc
  .array(fc.tuple(text, text, text, text), { minLength: 1, maxLength: 10 })
  .map((rows) =>
    rows.map(([given, family, userName, mailbox], i) => person(i, given, family, userName, mailbox)),
  );

/** A query: a piece of someone's name, user name or email (so there are hits), or generated text. */
const queryFor = (people: ProviderPerson[]) =>
  fc.oneof(
    text,
    fc
      .tuple(
        fc.constantFrom(...people),
        fc.constantFrom('displayName', 'userName', 'email'),
        fc.nat(),
        fc.nat(),
      )
      .map(([p, field, a, b]) => {
        const value = p[field];
        const start = a % value.length;
        return value.slice(start, start + 1 + (b % (value.length - start)));
      }),
  );

async function found(server: ScimServer, filter: 'server' | 'local', query: SourceQuery): Promise<string[]> {
  const spec: SourceSpec = {
    source_id: 'acme-scim',
    adapter: 'scim',
    options: { base_url: server.baseUrl, filter },
    credential: { name: 'ACME_SCIM_TOKEN', value: () => Promise.resolve(server.token) },
  };
  const result = await runFederation({
    sources: [createScimSource(spec, scimOptionsFromSpec(spec, true), { allowLoopbackHttp: true })],
    query,
    deadline: Date.now() + 10_000,
  });
  assert.equal(result.metadata.completeness, 'complete');
  return result.records.map((r) => r.sources[0]!.external_id).sort();
}

describe(
  'search_people through the SCIM server filter and through local matching',
  { timeout: 300_000 },
  () => {
    it('finds the same people over generated populations', async () => {
      await fc.assert(
        fc.asyncProperty(
          population.chain((people) =>
            fc.tuple(fc.constant(people), fc.array(queryFor(people), { minLength: 1, maxLength: 4 })),
          ),
          async ([people, queries]) => {
            const server = await startScimServer({
              population: { name: 'empty', size: 0 },
              extraPeople: people,
            });
            try {
              for (const q of queries) {
                const query: SourceQuery = { operation: 'search_people', query: q };
                assert.deepEqual(
                  await found(server, 'local', query),
                  await found(server, 'server', query),
                  JSON.stringify(q),
                );
              }
            } finally {
              await server.close();
            }
          },
        ),
        { numRuns: 40, seed: 20261206 },
      );
    });
  },
);
