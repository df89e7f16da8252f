/** Identity key normalisation (DESIGN §4 identity rules 2 and 3). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { normaliseEmail, normalisePhone } from '../../../lambda/federation/index.js';

// The rules written plainly, without the fast paths: the optimised functions must agree with them everywhere.
function plainEmail(email: string): string | null {
  const value = email.trim();
  return value === '' ? null : value.normalize('NFC').toLowerCase();
}
function plainPhone(phone: string): string | null {
  let digits = phone.replace(/\D/g, '');
  if (!phone.trimStart().startsWith('+') && digits.startsWith('00')) digits = digits.slice(2);
  return digits.length >= 8 ? `+${digits}` : null;
}
const from = (chars: string) => fc.constantFrom(...chars.split(''));

describe('normaliseEmail', () => {
  it('trims and lower-cases', () => {
    assert.equal(normaliseEmail('  Kim.Lee@Example.COM \n'), 'kim.lee@example.com');
  });

  it('composes Unicode to NFC so both spellings of one address match', () => {
    const decomposed = 'Zoe\u0308@example.com';
    const composed = 'zo\u00eb@example.com';
    assert.notEqual(decomposed.toLowerCase(), composed);
    assert.equal(normaliseEmail(decomposed), normaliseEmail(composed));
    assert.equal(normaliseEmail(decomposed), composed);
  });

  it('gives null for absent or blank values', () => {
    assert.equal(normaliseEmail(null), null);
    assert.equal(normaliseEmail(undefined), null);
    assert.equal(normaliseEmail('   '), null);
  });
});

describe('normalisePhone', () => {
  it('keeps a leading + and the digits, whatever the punctuation', () => {
    assert.equal(normalisePhone('+1 (555) 010-2030'), '+15550102030');
    assert.equal(normalisePhone('+1.555.010.2030'), '+15550102030');
  });

  it('reads a leading international 00 as +', () => {
    assert.equal(normalisePhone('0049 30 1234567'), '+49301234567');
  });

  it('refuses numbers with fewer than 8 digits (extensions would join strangers)', () => {
    assert.equal(normalisePhone('x4471'), null);
    assert.equal(normalisePhone('+1 234 567'), null);
    assert.equal(normalisePhone('1234 5678'), '+12345678');
  });

  it('gives null for absent values', () => {
    assert.equal(normalisePhone(null), null);
    assert.equal(normalisePhone(undefined), null);
  });
});

describe('normalisation fast paths', () => {
  it('gives exactly the plain rules for any email-like or phone-like text', () => {
    const emailish = fc.oneof(
      fc.string(),
      fc.array(from('aZ.@-_ 0\u00e9e\u0301\t'), { maxLength: 12 }).map((a) => a.join('')),
    );
    const phoneish = fc.oneof(
      fc.string(),
      fc.array(from('+0123456789 ()-.x'), { maxLength: 16 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(emailish, phoneish, (email, phone) => {
        assert.equal(normaliseEmail(email), plainEmail(email));
        assert.equal(normalisePhone(phone), plainPhone(phone));
      }),
      { numRuns: 2000 },
    );
  });
});
