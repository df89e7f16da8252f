/**
 * How the conformance runner judges a run against its expected-failures file: every scenario that ran
 * counts (pending and added-after-release ones too), warnings count like the suite's own baseline, and
 * entries that pass again are reported as stale.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { judge, readBaseline, type ScenarioOutcome } from '../../local/conformance/suite.js';

const outcome = (scenario: string, failures: string[] = [], warnings: string[] = []): ScenarioOutcome => ({
  scenario,
  passed: 1,
  failures,
  warnings,
  messages: [],
});

describe('judging a conformance run', () => {
  it('flags a failing or warning check that has no baseline entry', () => {
    const result = judge([outcome('ping', ['ping']), outcome('server-sse-polling', [], ['retry'])], []);

    assert.deepEqual(result, { unexpected: ['ping:ping', 'server-sse-polling:retry'], stale: [] });
  });

  it('accepts failures listed per scenario or per check, and nothing else in that scenario', () => {
    const result = judge(
      [outcome('a', ['x', 'y']), outcome('b', ['x', 'y'])],
      [
        { entry: 'a', reason: 'whole scenario' },
        { entry: 'b:x', reason: 'one check' },
      ],
    );

    assert.deepEqual(result, { unexpected: ['b:y'], stale: [] });
  });

  it('reports entries whose scenario or check passes again as stale', () => {
    const result = judge(
      [outcome('a'), outcome('b', ['y'])],
      [
        { entry: 'a', reason: 'was failing' },
        { entry: 'b:x', reason: 'was failing' },
        { entry: 'b:y', reason: 'still failing' },
      ],
    );

    assert.deepEqual(result, { unexpected: [], stale: ['a', 'b:x'] });
  });

  it('reads baseline entries with their reasons and rejects an entry without one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
    try {
      const good = join(dir, 'good.yaml');
      writeFileSync(
        good,
        'server:\n  - ping # runtime bug 12\n  - tools-list:tools-name-format # upstream\n',
      );
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'server:\n  - ping\n');

      assert.deepEqual(readBaseline(good), [
        { entry: 'ping', reason: 'runtime bug 12' },
        { entry: 'tools-list:tools-name-format', reason: 'upstream' },
      ]);
      assert.throws(() => readBaseline(bad), /has no '# reason'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
