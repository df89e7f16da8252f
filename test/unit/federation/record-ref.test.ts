/** record_ref bytes (DESIGN §4: `bos:person:` + a stable digest of the first provenance key). */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { provenanceKey, recordRefOfKey } from '../../../lambda/federation/record-ref.js';

/** The ref as it was first defined: prefix + the first 22 base64url digits of SHA-256 over the key's UTF-8. */
const oracle = (key: string) =>
  `bos:person:${createHash('sha256').update(key, 'utf8').digest('base64url').slice(0, 22)}`;

describe('recordRefOfKey', () => {
  it('equals the prefix and the first 22 base64url digits of the key SHA-256, for any key text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (key) => {
        assert.equal(recordRefOfKey(key), oracle(key));
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives the same ref for a provenance key whatever else was digested before', () => {
    const key = provenanceKey({ source_type: 'hr', source_identity: 'acme-hr', external_id: 'h1' });
    const first = recordRefOfKey(key);
    const other = recordRefOfKey(
      provenanceKey({ source_type: 'crm', source_identity: 'x', external_id: 'é' }),
    );
    assert.notEqual(other, first);
    assert.equal(first, oracle(key));
    assert.equal(recordRefOfKey(key), first);
    assert.match(first, /^bos:person:[A-Za-z0-9_-]{22}$/);
  });
});
