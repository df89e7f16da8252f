/**
 * Validation into a provider page's columns: each record as `normalizeRecord` sees it, refusals that append
 * nothing, the first refusal stopping a page, and a source's record limit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { normalizeRecord, ValidatedPage } from '../../../lambda/federation/index.js';
import { rawRecord, ref } from './support/scripted-source.js';

const hr = ref('acme-hr', 'hr');

describe('ValidatedPage', () => {
  it('holds each record as normalizeRecord gives it', () => {
    const raws = [
      rawRecord(hr, 'h1', { email: ' Kim@Example.com ', phone: '+1 (555) 010-2030' }),
      rawRecord(hr, 'h2', { observed_at: '2026-10-08T12:00:00.250Z', attributes: { title: 'x' } }),
      rawRecord(hr, 'h3', { display_name: null, phone: '4471' }),
    ];
    const page = new ValidatedPage();
    assert.equal(page.addAll(raws, hr), undefined);
    assert.equal(page.length, 3);
    raws.forEach((raw, i) => assert.deepEqual(page.member(i), normalizeRecord(raw, hr)));
    assert.equal(page.member(0).emailKey, 'kim@example.com');
    assert.equal(page.member(0).phoneKey, '+15550102030');
    assert.equal(page.member(1).observedMs, Date.parse('2026-10-08T12:00:00.250Z'));
  });

  it('appends nothing for a refused record and stops a page at the first refusal', () => {
    const page = new ValidatedPage();
    const raws = [
      rawRecord(hr, 'h1'),
      rawRecord(ref('acme-hr-impostor', 'hr'), 'h2'),
      { ...rawRecord(hr, 'h3'), observed_at: 'yesterday' },
    ];
    assert.equal(page.addAll(raws, hr), 'source_identity_mismatch');
    assert.equal(page.length, 1);
    assert.equal(page.add(raws[2], hr), 'invalid_record');
    assert.equal(page.length, 1);
  });

  it('copies attributes, so a provider reusing its object cannot change a published record', () => {
    const attributes: Record<string, unknown> = { title: 'before' };
    const page = new ValidatedPage();
    page.add(rawRecord(hr, 'h1', { attributes }), hr);
    attributes.title = 'after';
    assert.deepEqual(page.member(0).record.attributes, { title: 'before' });
  });

  it('keeps the first records when truncated to a limit', () => {
    const page = new ValidatedPage();
    page.addAll(
      ['a', 'b', 'c', 'd'].map((id) => rawRecord(hr, id)),
      hr,
    );
    page.truncate(2);
    assert.equal(page.length, 2);
    assert.deepEqual(
      page.members.map((m) => m.record.sources[0]?.external_id),
      ['a', 'b'],
    );
    assert.equal(page.member(1).record.sources[0]?.external_id, 'b');
    page.truncate(5);
    assert.equal(page.length, 2);
  });
});
