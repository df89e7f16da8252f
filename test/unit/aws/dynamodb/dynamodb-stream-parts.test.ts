/**
 * Splitting a stream event into DynamoDB-sized parts (`dynamodb-stream-parts.ts`): every part within the byte
 * bound, none cut inside a character, and the parts joined give the event back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPartKey, partKey, splitUtf8 } from '../../../../lambda/aws/dynamodb/dynamodb-stream-parts.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

describe('splitUtf8', () => {
  it('returns short text whole', () => {
    assert.deepEqual(splitUtf8('hello', 100), ['hello']);
    assert.deepEqual(splitUtf8('', 100), ['']);
  });

  it('splits ASCII into full parts', () => {
    const parts = splitUtf8('a'.repeat(250), 100);
    assert.deepEqual(
      parts.map((part) => part.length),
      [100, 100, 50],
    );
  });

  it('keeps every part within the bound and every character whole, for 1- to 4-byte characters', () => {
    const text = 'aé€😀'.repeat(5_000);
    for (const max of [4, 7, 100, 1_001]) {
      const parts = splitUtf8(text, max);
      assert.equal(parts.join(''), text);
      for (const part of parts) {
        assert.ok(bytes(part) <= max, `a part of ${bytes(part)} bytes over ${max}`);
        assert.ok(part.length > 0);
        // A lone surrogate would not survive a UTF-8 round trip.
        assert.equal(Buffer.from(part, 'utf8').toString('utf8'), part);
      }
    }
  });
});

describe('part keys', () => {
  it('sort right after their event and before the next one, and are told apart from event keys', () => {
    const keys = [
      'event#000000000043',
      partKey('000000000042', 2),
      'event#000000000042',
      partKey('000000000042', 1),
    ];
    assert.deepEqual([...keys].sort(), [
      'event#000000000042',
      'event#000000000042#001',
      'event#000000000042#002',
      'event#000000000043',
    ]);
    assert.equal(isPartKey(partKey('000000000042', 1)), true);
    assert.equal(isPartKey('event#000000000042'), false);
  });
});
