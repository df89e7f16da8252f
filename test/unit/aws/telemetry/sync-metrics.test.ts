/**
 * A source cache sync's metrics: per source its duration, records written and removed, failure and baseline
 * age (also as a percentage of its `max_staleness`), and the percentage once more under `service` alone for
 * the one staleness alarm; conforming EMF.
 */
import assert from 'node:assert/strict';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { publishSyncMetrics } from '../../../../lambda/aws/index.js';
import { emfBlobs, emfMetrics, emfProblems } from '../../../helpers/emf.js';

function collecting(): { metrics: Metrics; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line !== ''),
      );
      callback();
    },
  });
  const metrics = new Metrics({ namespace: 'BosMcp', serviceName: 'bos-mcp' });
  (metrics as unknown as { console: Console }).console = new Console({ stdout: sink, stderr: sink });
  return { metrics, lines };
}

const report = {
  sourceId: 'acme-scim',
  sourceType: 'scim',
  result: 'delta',
  written: 12,
  removed: 2,
  durationMs: 850,
  baselineAgeMs: 1_800_000,
  maxStalenessMs: 3_600_000,
};

describe('sync metrics', () => {
  it('publishes a source’s figures under its type and id, and its staleness under service alone', () => {
    const { metrics, lines } = collecting();
    publishSyncMetrics(metrics, report);
    const blobs = emfBlobs(lines);
    assert.deepEqual(
      blobs.flatMap((b) => emfProblems(b)),
      [],
    );
    const found = blobs
      .flatMap((b) => emfMetrics(b))
      .map((m) => [Object.keys(m.dimensions).sort().join('+'), m.name, m.value]);
    assert.deepEqual(found, [
      ['service+source.id+source.type', 'CacheSyncDuration', 850],
      ['service+source.id+source.type', 'CacheSyncRecordsWritten', 12],
      ['service+source.id+source.type', 'CacheSyncRecordsRemoved', 2],
      ['service+source.id+source.type', 'CacheSyncFailures', 0],
      ['service+source.id+source.type', 'CacheBaselineAge', 1_800_000],
      ['service+source.id+source.type', 'CacheBaselineStaleness', 50],
      ['service', 'CacheBaselineStaleness', 50],
    ]);
  });

  it('counts a failure, and a source without a baseline as fully stale', () => {
    const { metrics, lines } = collecting();
    publishSyncMetrics(metrics, {
      sourceId: 's',
      sourceType: 'okta',
      result: 'failed',
      written: 0,
      removed: 0,
      durationMs: 5,
    });
    const found = emfBlobs(lines).flatMap((b) => emfMetrics(b));
    assert.equal(found.find((m) => m.name === 'CacheSyncFailures')?.value, 1);
    assert.deepEqual(
      found
        .filter((m) => m.name === 'CacheBaselineStaleness')
        .map((m) => [Object.keys(m.dimensions), m.value]),
      [[['service'], 100]],
    );
  });

  it('publishes nothing for a source another worker was syncing', () => {
    const { metrics, lines } = collecting();
    publishSyncMetrics(metrics, { ...report, result: 'busy' });
    assert.deepEqual(lines, []);
  });
});
