/**
 * The per-chunk link check: a key seen twice within one chunk is reported, keys of earlier chunks are not, equal
 * hashes of different keys are told apart, and keys crafted to collide end in "maybe linked", never in a long scan.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { ChunkLinks } from '../../../lambda/federation/chunk-links.js';
import { keyHash } from '../../../lambda/federation/key-hash.js';

/** Runs `keys` as one chunk; returns the first position whose key met an earlier one, or -1. */
function firstMeeting(links: ChunkLinks, keys: string[], hashOf: (key: string) => number = keyHash): number {
  links.start(keys.length, (i) => keys[i]!);
  for (let i = 0; i < keys.length; i++) if (links.meets(hashOf(keys[i]!), i)) return i;
  return -1;
}

/** The same answer from a Set. */
function reference(keys: string[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < keys.length; i++) {
    if (seen.has(keys[i]!)) return i;
    seen.add(keys[i]!);
  }
  return -1;
}

describe('ChunkLinks', () => {
  it('finds the first repeated key of a chunk, and forgets earlier chunks', () => {
    const links = new ChunkLinks();
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.constantFrom('a@x.io', 'b@x.io', 'c', 'Zoë', 'ł', 'e1', 'e2'), { maxLength: 12 }),
          {
            maxLength: 6,
          },
        ),
        (chunks) => {
          for (const keys of chunks) assert.equal(firstMeeting(links, keys), reference(keys));
        },
      ),
    );
  });

  it('tells keys with equal hashes apart', () => {
    const links = new ChunkLinks();
    assert.equal(
      firstMeeting(links, ['a', 'b', 'c'], () => 7),
      -1,
    );
    assert.equal(
      firstMeeting(links, ['a', 'b', 'a'], () => 7),
      2,
    );
  });

  it('answers "maybe linked" once colliding keys fill its probe budget', () => {
    // 40 distinct keys with one hash: no real link, but the check gives up instead of scanning on.
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    const at = firstMeeting(new ChunkLinks(), keys, () => 7);
    assert.ok(at > 0 && at < keys.length);
  });

  it('grows for a chunk larger than any before', () => {
    const links = new ChunkLinks();
    assert.equal(firstMeeting(links, ['a', 'b']), -1);
    const many = Array.from({ length: 5000 }, (_, i) => `person.${i}@example.com`);
    assert.equal(firstMeeting(links, many), -1);
    assert.equal(firstMeeting(links, [...many, 'person.17@example.com']), 5000);
  });
});
