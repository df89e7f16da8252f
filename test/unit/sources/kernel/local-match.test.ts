/**
 * The kernel's one local matching semantics: display name, user name / login and every email, compared
 * under NFKC and caseless matching; `updated_since` compared as instants; a search `limit` kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RawRecord } from '../../../../lambda/federation/index.js';
import { foldForMatch, matchRecords } from '../../../../lambda/sources/kernel/index.js';

const record = (id: string, overrides: Partial<RawRecord> = {}): RawRecord => ({
  source_type: 'test',
  source_identity: 'match',
  external_id: id,
  record_type: 'person',
  observed_at: '2026-10-01T00:00:00Z',
  capabilities: ['read'],
  display_name: null,
  email: null,
  attributes: {},
  ...overrides,
});

const ids = (records: RawRecord[]) => records.map((r) => r.external_id);
const search = (all: RawRecord[], query: string, limit?: number) =>
  ids(matchRecords(all, { operation: 'search_people', query, ...(limit === undefined ? {} : { limit }) }));

describe('local matching', () => {
  it('folds text by NFKC and caseless matching, beyond what toLowerCase does', () => {
    assert.equal(foldForMatch('Rene\u0301e'), foldForMatch('REN\u00c9E'));
    assert.equal(foldForMatch('Stra\u00dfe'), 'strasse');
    assert.equal(foldForMatch('STRA\u1e9eE'), 'strasse');
    assert.equal(
      foldForMatch('\u03a3\u03bf\u03c6\u03af\u03b1\u03c2'),
      foldForMatch('\u03a3\u039f\u03a6\u038a\u0391\u03a3'),
    );
    assert.equal(foldForMatch('\ufb01ona'), 'fiona');
    assert.equal(foldForMatch('\uff21\uff44\uff41'), 'ada');
  });

  it('matches display name, user name, login and every email, and nothing else', () => {
    const all = [
      record('by-name', { display_name: 'Ada Lovelace' }),
      record('by-email', { email: 'countess@example.com' }),
      record('by-user-name', { attributes: { user_name: 'alovelace' } }),
      record('by-login', { attributes: { login: 'ada.l' } }),
      record('by-second-email', {
        email: 'x@example.com',
        attributes: { emails: ['x@example.com', 'ada@old.example'] },
      }),
      record('by-title-only', { attributes: { title: 'Ada' } }),
    ];
    assert.deepEqual(search(all, 'ada'), ['by-name', 'by-login', 'by-second-email']);
    assert.deepEqual(search(all, 'LOVELACE'), ['by-name', 'by-user-name']);
    assert.deepEqual(search(all, 'countess'), ['by-email']);
  });

  it('finds a decomposed stored name from a composed query and the other way round', () => {
    const all = [
      record('nfd', { display_name: 'Rene\u0301e Dupont' }),
      record('nfc', { display_name: 'Ren\u00e9e Roy' }),
    ];
    assert.deepEqual(search(all, 'ren\u00e9e'), ['nfd', 'nfc']);
    assert.deepEqual(search(all, 'RENE\u0301E'), ['nfd', 'nfc']);
  });

  it('takes quotes, parentheses, backslashes and operator words as text', () => {
    const all = [
      record('tricky', { display_name: 'Zed O\'Hara (x*y) "Q" back\\slash' }),
      record('plain', { display_name: 'Zed Or' }),
    ];
    for (const query of ['"Q"', '(x*y)', 'back\\slash', "o'hara"])
      assert.deepEqual(search(all, query), ['tricky']);
    assert.deepEqual(search(all, 'a" or displayName pr or "'), []);
  });

  it('keeps everyone for an empty search and get_person, and cuts a search at its limit', () => {
    const all = [
      record('a', { display_name: 'Ann' }),
      record('b', { display_name: 'Anna' }),
      record('c', { display_name: 'Bo' }),
    ];
    assert.deepEqual(search(all, '   '), ['a', 'b', 'c']);
    assert.deepEqual(ids(matchRecords(all, { operation: 'get_person', record_ref: 'bos:person:x' })), [
      'a',
      'b',
      'c',
    ]);
    assert.deepEqual(search(all, 'ann', 1), ['a']);
  });

  it('keeps what changed at or after updated_since, compared as instants', () => {
    const all = [
      record('before', { observed_at: '2026-09-30T23:59:59Z' }),
      record('at', { observed_at: '2026-10-01T02:00:00+02:00' }),
      record('after', { observed_at: '2026-10-02T00:00:00Z' }),
    ];
    assert.deepEqual(
      ids(matchRecords(all, { operation: 'list_people', updated_since: '2026-10-01T00:00:00Z' })),
      ['at', 'after'],
    );
    assert.deepEqual(ids(matchRecords(all, { operation: 'list_people' })), ['before', 'at', 'after']);
  });
});
