/**
 * A deferred factory reads a definition's options when the source is built and loads the adapter's code on
 * its first read, once per source; a failed load fails that read only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RawRecord, ReadOptions, SourceAdapter } from '../../../lambda/federation/index.js';
import { createScimSourceFactory, SourceConfigError } from '../../../lambda/sources/index.js';
import { deferredSourceFactory } from '../../../lambda/sources/registry/index.js';
import type { SourceSpec } from '../../../lambda/sources/registry/index.js';

const spec: SourceSpec = { source_id: 'hr-main', adapter: 'test', options: { source_type: 'hr' } };
const readOptions = (): ReadOptions => ({
  signal: new AbortController().signal,
  deadline: Date.now() + 5000,
});
const record: RawRecord = {
  source_type: 'hr',
  source_identity: 'hr-main',
  external_id: 'e-1',
  record_type: 'person',
  observed_at: '2026-01-01T00:00:00Z',
  capabilities: [],
};

async function readAll(adapter: SourceAdapter): Promise<unknown[]> {
  const pages: unknown[] = [];
  for await (const page of adapter.read({ operation: 'list_people' }, readOptions())) pages.push(page);
  return pages;
}

/** A factory over a loader that counts its loads and can be told to fail the next one. */
function counted(options: { sourceType: string; timeoutMs?: number }) {
  const state = { loads: 0, built: 0, failNext: false };
  const factory = deferredSourceFactory(
    () => options,
    () => {
      state.loads += 1;
      if (state.failNext) {
        state.failNext = false;
        return Promise.reject(new Error('chunk missing'));
      }
      return Promise.resolve((built: SourceSpec) => {
        state.built += 1;
        return {
          source: { source_type: options.sourceType, source_identity: built.source_id },
          read: async function* () {
            yield await Promise.resolve([record]);
          },
        };
      });
    },
  );
  return { factory, state };
}

describe('deferredSourceFactory', () => {
  it("answers the source and its timeout at once, and loads the adapter's code on the first read only", async () => {
    // Prepare
    const { factory, state } = counted({ sourceType: 'hr', timeoutMs: 1500 });
    // Act
    const adapter = factory(spec);
    const before = state.loads;
    const first = await readAll(adapter);
    const second = await readAll(adapter);
    // Assess
    assert.deepEqual(adapter.source, { source_type: 'hr', source_identity: 'hr-main' });
    assert.equal(adapter.timeoutMs, 1500);
    assert.equal(before, 0);
    assert.deepEqual(first, [[record]]);
    assert.deepEqual(second, [[record]]);
    assert.deepEqual({ loads: state.loads, built: state.built }, { loads: 1, built: 1 });
  });

  it('fails the read whose load failed, and loads again on the next read', async () => {
    // Prepare
    const { factory, state } = counted({ sourceType: 'hr' });
    const adapter = factory(spec);
    state.failNext = true;
    // Act / Assess
    await assert.rejects(readAll(adapter), /chunk missing/);
    assert.deepEqual(await readAll(adapter), [[record]]);
    assert.equal(state.loads, 2);
  });

  it("refuses a bad definition when the source is built, before any of the kind's code loads", () => {
    // Act / Assess
    assert.throws(
      () => createScimSourceFactory()({ source_id: 'scim-x', adapter: 'scim', options: {} }),
      (error: unknown) => error instanceof SourceConfigError && error.sourceId === 'scim-x',
    );
  });
});
