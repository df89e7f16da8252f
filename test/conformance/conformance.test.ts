/**
 * The official MCP conformance suite (server mode) against our runtime, one test per requirement set.
 * Expected failures live beside this file, one reason per entry; the goal is that they stay empty.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderReport, runConformanceSuite } from '../../local/conformance/suite.js';

describe('MCP conformance suite', { timeout: 900_000 }, () => {
  it('passes every 2025-11-25 server scenario, pending ones included, except listed expected failures', async (t) => {
    const report = await runConformanceSuite({ requirements: '2025-11-25' });
    t.diagnostic(renderReport(report));
    t.diagnostic(report.summary);

    assert.ok(report.scenarios.length > 0, 'the suite ran no scenario');
    assert.deepEqual(report.unexpected, [], 'unexpected failures');
    assert.deepEqual(report.stale, [], 'expected-failures entries that now pass');
    assert.equal(report.suiteExitCode, 0, 'the suite itself reported failing required scenarios');
  });

  it('passes every 2026-07-28 server scenario, pending ones included, except listed expected failures', async (t) => {
    const report = await runConformanceSuite({ requirements: '2026-07-28' });
    t.diagnostic(renderReport(report));
    t.diagnostic(report.summary);

    assert.ok(report.scenarios.length > 0, 'the suite ran no scenario');
    assert.deepEqual(report.unexpected, [], 'unexpected failures');
    assert.deepEqual(report.stale, [], 'expected-failures entries that now pass');
    assert.equal(report.suiteExitCode, 0, 'the suite itself reported failing required scenarios');
  });
});
