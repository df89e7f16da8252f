/**
 * Checks the engine against the contract's own synthetic sequence (bos-source-results-v1 §3 and §5): one
 * source delivers one record and completes, the other times out. Reads the contract text from ../shared.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { runFederation } from '../../../lambda/federation/index.js';
import type { FederationEvent } from '../../../lambda/federation/index.js';
import { fixedClock, inMs, rawRecord, ref, scripted } from './support/scripted-source.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const contractPath = join(root, '..', 'shared', 'contract', 'bos-source-results-v1.txt');

interface FinalFrame {
  result: { structuredContent: { result: { result: Record<string, unknown>[]; metadata: unknown } } };
}

/** The `data:` JSON of the contract's final frame (the line answering id "search-1" with a result). */
function contractFinalFrame(): FinalFrame {
  const line = readFileSync(contractPath, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('data: {"jsonrpc":"2.0","id":"search-1","result"'));
  assert.ok(line !== undefined, 'the contract still prints its final frame');
  return JSON.parse(line.slice('data: '.length)) as FinalFrame;
}

describe('the contract example sequence', () => {
  it('produces the final frame metadata and record shape the contract prints', async (t) => {
    if (!existsSync(contractPath)) {
      t.skip(`contract text not found at ${contractPath}`);
      return;
    }
    const expected = contractFinalFrame().result.structuredContent.result;
    const demo = ref('demo-source', 'example');
    const other = ref('other-demo-source', 'example');
    const events: FederationEvent[] = [];
    const result = await runFederation({
      sources: [
        scripted(demo, [[rawRecord(demo, 'demo-1', { display_name: 'Example Person' })]]).adapter,
        scripted(other, [], { then: 'hang' }).adapter,
      ],
      query: { operation: 'search_people', query: 'example' },
      deadline: inMs(5000),
      sourceTimeoutMs: 100,
      clock: fixedClock,
      onEvent: (e) => void events.push(e),
    });
    assert.deepEqual(result.metadata, expected.metadata);
    // record_ref is our digest, not the contract's illustrative `bos:person:demo-1`; everything else matches.
    const [record] = result.records;
    assert.match(record?.record_ref ?? '', /^bos:person:/);
    assert.deepEqual({ ...record, record_ref: 'bos:person:demo-1' }, expected.result[0]);
    assert.deepEqual(
      events.map((e) => [e.type, e.source.source_identity, e.pageIndex]),
      [
        ['page', 'demo-source', 1],
        ['complete', 'demo-source', 1],
        ['error', 'other-demo-source', 0],
      ],
    );
  });
});
