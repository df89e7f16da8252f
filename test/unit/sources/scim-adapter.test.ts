/**
 * The `scim` adapter's pure parts: filter expressions whose values stay data, the ServiceProviderConfig
 * reading that picks index or cursor paging, and the user mapping with its `meta.location` check.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'scim2-parse-filter';
import {
  parseServiceProviderConfig,
  scimFilterFor,
  scimOptionsFromSpec,
  scimUserMapper,
} from '../../../lambda/sources/scim/index.js';

const source = { source_type: 'scim', source_identity: 'acme-scim' };

describe('the scim adapter', () => {
  it('builds search filters whose value is one JSON string, whatever the query holds', () => {
    const filter = scimFilterFor({ operation: 'search_people', query: 'a" or userName pr or "' });
    assert.equal(
      filter,
      'displayName co "a\\" or userName pr or \\"" or userName co "a\\" or userName pr or \\"" or emails.value co "a\\" or userName pr or \\""',
    );
    const ast = parse(filter ?? '') as { op: string; filters: { compValue: unknown }[] };
    assert.equal(ast.op, 'or');
    assert.equal(ast.filters.length, 3);
    assert.equal(scimFilterFor({ operation: 'search_people', query: '  ' }), undefined);
    assert.equal(
      scimFilterFor({ operation: 'list_people', updated_since: '2026-10-01T00:00:00Z' }),
      'meta.lastModified ge "2026-10-01T00:00:00.000Z"',
    );
  });

  it('chooses cursor paging only when the server offers it and prefers it or lacks index paging', () => {
    assert.deepEqual(parseServiceProviderConfig({ filter: { supported: true, maxResults: 200 } }), {
      filter: true,
      maxResults: 200,
      paging: 'index',
    });
    assert.equal(parseServiceProviderConfig({ pagination: { cursor: true, index: false } }).paging, 'cursor');
    assert.equal(
      parseServiceProviderConfig({
        pagination: { cursor: true, defaultPaginationMethod: 'cursor', maxPageSize: 50 },
      }).maxResults,
      50,
    );
    assert.equal(parseServiceProviderConfig({ pagination: { cursor: true, index: true } }).paging, 'index');
  });

  it('maps a user, keeps meta.version and lastModified, and refuses a location on another host', () => {
    const map = scimUserMapper(
      source,
      'hr.example.com',
      '2026-10-08T12:00:00Z',
      new URL('https://hr.example.com/scim/v2'),
    );
    const user = {
      id: '42',
      userName: 'ada@example.com',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: 'other@example.com' }, { value: 'ada@example.com', primary: true }],
      active: true,
      meta: { lastModified: '2026-10-01T00:00:00Z', version: 'W/"3"', location: '/scim/v2/Users/42' },
    };
    assert.deepEqual(map(user), {
      ...source,
      external_id: '42',
      record_type: 'person',
      observed_at: '2026-10-01T00:00:00Z',
      capabilities: ['read'],
      version: 'W/"3"',
      display_name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: null,
      lifecycle: 'active',
      // Every address, as a search's `co` on emails.value compares them all
      attributes: { user_name: 'ada@example.com', emails: ['other@example.com', 'ada@example.com'] },
    });
    assert.throws(() => map({ ...user, meta: { location: 'https://evil.example/scim/v2/Users/42' } }), {
      code: 'source_identity_mismatch',
    });
    assert.deepEqual(map({ userName: 'no id' }), { skip: 'malformed_record' });
  });

  it('lists every problem of a bad definition', () => {
    assert.throws(
      () =>
        scimOptionsFromSpec(
          {
            source_id: 'x',
            adapter: 'scim',
            options: { base_url: 'ftp://x?y', auth: 'magic' },
          },
          false,
        ),
      (error: Error & { problems?: string[] }) =>
        ['options.base_url', 'options.auth', 'credential_ref'].every(
          (needle) => error.problems?.some((p) => p.includes(needle)) === true,
        ),
    );
  });
});
