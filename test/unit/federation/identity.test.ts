/** The identity rules and the shape of a federated record (DESIGN §4, contract §3). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { federate, normalizeRecord, singleKeyRecordRef } from '../../../lambda/federation/index.js';
import type { NormalizedRecord, RawRecord } from '../../../lambda/federation/index.js';
import { rawRecord, ref } from './support/scripted-source.js';

const hr = ref('acme-hr', 'hr');
const crm = ref('acme-crm', 'crm');
const dir = ref('acme-directory', 'directory');

function normalized(raw: RawRecord): NormalizedRecord {
  const record = normalizeRecord(raw, { source_type: raw.source_type, source_identity: raw.source_identity });
  assert.ok(typeof record !== 'string', `valid fixture record: ${JSON.stringify(record)}`);
  return record;
}

const run = (...raws: RawRecord[]) => federate(raws.map(normalized));

describe('federate clustering', () => {
  it('keeps unrelated records apart, each with a single provenance and no identity_match', () => {
    const out = run(rawRecord(hr, 'h1'), rawRecord(crm, 'c1'));
    assert.equal(out.length, 2);
    for (const r of out) {
      assert.equal(r.sources.length, 1);
      assert.equal(r.identity_match, null);
    }
  });

  it('joins records with the same normalised email across sources', () => {
    const [person, ...rest] = run(
      rawRecord(hr, 'h1', { email: 'Kim@Example.com' }),
      rawRecord(crm, 'c1', { email: ' kim@example.COM' }),
    );
    assert.equal(rest.length, 0);
    assert.deepEqual(person?.identity_match, { matched_on: ['email'], source_count: 2 });
  });

  it('joins records with the same normalised phone, written differently', () => {
    const out = run(
      rawRecord(hr, 'h1', { phone: '+1 (555) 010-2030' }),
      rawRecord(dir, 'd1', { phone: '+15550102030' }),
    );
    assert.equal(out.length, 1);
    assert.deepEqual(out[0]?.identity_match, { matched_on: ['phone'], source_count: 2 });
  });

  it('does not join on phones shorter than 8 digits', () => {
    assert.equal(
      run(rawRecord(hr, 'h1', { phone: '4471' }), rawRecord(dir, 'd1', { phone: '4471' })).length,
      2,
    );
  });

  it('joins transitively and names every key kind that joined the cluster', () => {
    const out = run(
      rawRecord(hr, 'h1', { email: 'a@example.com' }),
      rawRecord(crm, 'c1', { email: 'a@example.com', phone: '+4930123456' }),
      rawRecord(dir, 'd1', { phone: '+49 30 123456' }),
    );
    assert.equal(out.length, 1);
    assert.deepEqual(out[0]?.identity_match, { matched_on: ['email', 'phone'], source_count: 3 });
  });

  it('keeps one provenance entry per (source_type, source_identity, external_id), the newest version winning', () => {
    const out = run(
      rawRecord(hr, 'h1', { display_name: 'Old', observed_at: '2026-01-01T00:00:00Z' }),
      rawRecord(hr, 'h1', { display_name: 'New', observed_at: '2026-02-01T00:00:00Z' }),
    );
    assert.equal(out.length, 1);
    assert.equal(out[0]?.display_name, 'New');
    assert.equal(out[0]?.sources.length, 1);
    assert.equal(out[0]?.identity_match, null);
  });
});

describe('federate merging', () => {
  it('sorts sources by (source_type, source_identity, external_id) and derives record_ref from the first', () => {
    const [person] = run(
      rawRecord(hr, 'h2', { email: 'x@example.com' }),
      rawRecord(crm, 'c9', { email: 'x@example.com' }),
      rawRecord(hr, 'h10', { email: 'x@example.com' }),
    );
    assert.deepEqual(
      person?.sources.map((s) => `${s.source_type}/${s.external_id}`),
      ['crm/c9', 'hr/h10', 'hr/h2'],
    );
    assert.equal(person?.record_ref, singleKeyRecordRef({ ...crm, external_id: 'c9' }));
    assert.match(person?.record_ref ?? '', /^bos:person:[A-Za-z0-9_-]{22}$/);
  });

  it('takes each scalar from the latest observation that has one', () => {
    const [person] = run(
      rawRecord(hr, 'h1', {
        email: 'k@example.com',
        display_name: 'Old Name',
        lifecycle: 'active',
        observed_at: '2026-01-01T00:00:00Z',
      }),
      rawRecord(crm, 'c1', {
        email: 'k@example.com',
        display_name: 'New Name',
        lifecycle: null,
        observed_at: '2026-03-01T00:00:00Z',
      }),
    );
    assert.equal(person?.display_name, 'New Name');
    assert.equal(person?.lifecycle, 'active', 'a null never hides an older value');
    assert.equal(person?.email, 'k@example.com');
  });

  it('breaks observed_at ties by the provenance sort order', () => {
    const [person] = run(
      rawRecord(hr, 'h1', { email: 'k@example.com', display_name: 'From HR' }),
      rawRecord(crm, 'c1', { email: 'k@example.com', display_name: 'From CRM' }),
    );
    assert.equal(person?.display_name, 'From CRM');
  });

  it('merges attributes shallowly with the latest observation winning each key', () => {
    const [person] = run(
      rawRecord(hr, 'h1', {
        email: 'k@example.com',
        observed_at: '2026-01-01T00:00:00Z',
        attributes: { title: 'Old', department: 'Sales' },
      }),
      rawRecord(crm, 'c1', {
        email: 'k@example.com',
        observed_at: '2026-02-01T00:00:00Z',
        attributes: { title: 'New', nested: { a: 1 } },
      }),
    );
    assert.deepEqual(person?.attributes, { title: 'New', nested: { a: 1 }, department: 'Sales' });
  });

  it('keeps an attribute named __proto__ as plain data', () => {
    const attributes = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const [person] = run(rawRecord(hr, 'h1', { attributes }));
    assert.equal(Object.getPrototypeOf(person?.attributes), Object.prototype);
    assert.equal(JSON.stringify(person?.attributes), '{"__proto__":{"polluted":true}}');
  });

  it('writes the wire shape in the contract order', () => {
    const [person] = run(rawRecord(hr, 'h1', { display_name: 'Example Person' }));
    assert.deepEqual(Object.keys(person ?? {}), [
      'record_ref',
      'display_name',
      'email',
      'phone',
      'lifecycle',
      'sources',
      'identity_match',
      'attributes',
    ]);
    assert.deepEqual(Object.keys(person?.sources[0] ?? {}), [
      'source_type',
      'source_identity',
      'external_id',
      'record_type',
      'observed_at',
      'capabilities',
      'version',
    ]);
  });
});

describe('federate order', () => {
  it('orders by lower-cased display_name, then record_ref, with unnamed records last', () => {
    const out = run(
      rawRecord(hr, 'h1', { display_name: 'bob' }),
      rawRecord(hr, 'h2', { display_name: null }),
      rawRecord(hr, 'h3', { display_name: 'Alice' }),
      rawRecord(hr, 'h4', { display_name: 'ALICE' }),
    );
    const names = out.map((r) => r.display_name);
    assert.deepEqual(
      names.slice(0, 2).map((n) => n?.toLowerCase()),
      ['alice', 'alice'],
    );
    assert.deepEqual(names.slice(2), ['bob', null]);
    const [first, second] = out;
    assert.ok((first?.record_ref ?? '') < (second?.record_ref ?? ''), 'equal names fall back to record_ref');
  });

  it('gives byte-identical JSON whatever the input order', () => {
    const raws = [
      rawRecord(hr, 'h1', { email: 'k@example.com', display_name: 'Kim' }),
      rawRecord(crm, 'c1', { email: 'K@example.com', display_name: 'Kim L.' }),
      rawRecord(dir, 'd1', { display_name: 'Ana' }),
      rawRecord(hr, 'h1', { email: 'k@example.com', display_name: 'Kim' }),
    ];
    const forward = JSON.stringify(run(...raws));
    assert.equal(JSON.stringify(run(...[...raws].reverse())), forward);
  });
});
