/**
 * The `ldap` adapter's pure parts: result codes onto the five contract codes (with ldapts's own error
 * classes), the DN check that keeps entries outside the base DN from being published, GeneralizedTime,
 * and the refusal of plain `ldap://` to a non-loopback host.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BusyError,
  InsufficientAccessError,
  InvalidCredentialsError,
  SizeLimitExceededError,
  TimeLimitExceededError,
  UnavailableError,
} from 'ldapts';
import type { Entry } from 'ldapts';
import {
  createLdapSource,
  DEFAULT_ATTRIBUTES,
  isUnderBase,
  isoOfGeneralizedTime,
  ldapEntryMapper,
  ldapFailure,
  ldapOptionsFromSpec,
} from '../../../lambda/sources/ldap/index.js';
import { ProviderError, ReadBudget } from '../../../lambda/sources/kernel/index.js';
import type { SourceSpec } from '../../../lambda/sources/index.js';

const budget = () => new ReadBudget({ signal: new AbortController().signal, deadline: Date.now() + 10_000 });
const source = { source_type: 'ldap', source_identity: 'acme-ldap' };
const base = 'ou=people,dc=acme,dc=test';

describe('the ldap adapter', () => {
  it('maps LDAP result codes 49, 50, 51, 52 and 3 and a refused connection onto the contract codes', () => {
    const cases: [unknown, string][] = [
      [new InvalidCredentialsError('PROVIDER-TEXT connect 10.0.0.1:636'), 'provider_authorization_required'],
      [new InsufficientAccessError('PROVIDER-TEXT connect 10.0.0.1:636'), 'provider_authorization_required'],
      [new BusyError('PROVIDER-TEXT connect 10.0.0.1:636'), 'rate_limited'],
      [new UnavailableError('PROVIDER-TEXT connect 10.0.0.1:636'), 'source_unavailable'],
      [new TimeLimitExceededError('PROVIDER-TEXT connect 10.0.0.1:636'), 'source_timeout'],
      [new SizeLimitExceededError('PROVIDER-TEXT connect 10.0.0.1:636'), 'source_unavailable'],
      [
        Object.assign(new Error('PROVIDER-TEXT connect 10.0.0.1:636'), { code: 'ECONNREFUSED' }),
        'source_unavailable',
      ],
    ];
    for (const [error, code] of cases) {
      const mapped = ldapFailure(error, budget());
      assert.ok(mapped instanceof ProviderError);
      assert.equal(mapped.code, code);
      assert.doesNotMatch(mapped.message, /PROVIDER-TEXT|10\.0\.0\.1/);
    }
  });

  it('refuses an entry whose DN is outside the base DN, and accepts spacing and case variants', () => {
    const map = ldapEntryMapper(source, base, DEFAULT_ATTRIBUTES, '2026-10-08T12:00:00Z');
    const entry = (dn: string): Entry => ({
      dn,
      entryUUID: 'id-1',
      cn: 'Ada',
      modifyTimestamp: '20261001101500Z',
    });
    assert.equal(
      (map(entry('uid=a, OU=People,dc=ACME, dc=test')) as { external_id: string }).external_id,
      'id-1',
    );
    assert.equal((map(entry(base)) as { observed_at: string }).observed_at, '2026-10-01T10:15:00Z');
    assert.throws(() => map(entry('uid=a,ou=contractors,dc=acme,dc=test')), {
      code: 'source_identity_mismatch',
    });
    assert.throws(() => map(entry('uid=a,ou=people,dc=acme,dc=test,dc=evil')), {
      code: 'source_identity_mismatch',
    });
    assert.deepEqual(map({ dn: `uid=b,${base}`, cn: 'no id' }), { skip: 'malformed_record' });
    assert.equal(isUnderBase('cn=x\\,ou=people,dc=acme,dc=test', base), false);
    assert.equal(isoOfGeneralizedTime('2026'), undefined);
  });

  it('refuses plain ldap:// to a non-loopback host, and to loopback without the local allowance', async () => {
    for (const [url, allow] of [
      ['ldap://ldap.example.com', true],
      ['ldap://127.0.0.1:3890', false],
    ] as const) {
      const spec: SourceSpec = {
        source_id: 'acme-ldap',
        adapter: 'ldap',
        options: { url, base_dn: base, bind_dn: 'cn=reader,dc=acme,dc=test' },
        credential: { name: 'P', value: () => Promise.resolve('secret') },
      };
      const adapter = createLdapSource(spec, ldapOptionsFromSpec(spec), { allowLoopbackHttp: allow });
      const pages = adapter.read(
        { operation: 'list_people' },
        { signal: new AbortController().signal, deadline: Date.now() + 1000 },
      );
      await assert.rejects(
        (async () => {
          for await (const page of pages) void page;
        })(),
        { code: 'source_unavailable', reason: 'insecure_url' },
      );
    }
  });

  it('lists every problem of a bad definition, naming the option', () => {
    assert.throws(
      () =>
        ldapOptionsFromSpec({
          source_id: 'bad',
          adapter: 'ldap',
          options: { url: 'http://x', base_dn: '', page_size: 0, colour: 'red' },
        }),
      (error: Error & { problems?: string[] }) =>
        [
          'options.url',
          'options.base_dn',
          'options.bind_dn',
          'options.page_size',
          'options.colour',
          'credential_ref',
        ].every((needle) => error.problems?.some((p) => p.includes(needle)) === true),
    );
  });
});
