/**
 * The official MCP conformance suite (server mode, 2025-11-25 and 2026-07-28) through the local Lambda stack: REST v1
 * front, a pool of `aws-lambda-ric` execution environments, DynamoDB Local. Consecutive requests of one
 * session land in different environments, so this proves that sessions, resumable streams and replies to
 * server-to-client requests (sampling, elicitation) travel through the shared stores, not process memory.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { renderReport, runConformanceSuite } from '../../local/conformance/suite.js';
import { javaAvailable } from '../helpers/java.js';

describe('MCP conformance suite through the local Lambda stack', { timeout: 900_000 }, () => {
  for (const requirements of ['2025-11-25', '2026-07-28'] as const) {
    it(`passes every ${requirements} server scenario across execution environments, except listed expected failures`, async (t) => {
      if (!javaAvailable()) {
        t.skip('java is not installed: DynamoDB Local (the shared session and stream stores) cannot start');
        return;
      }
      const report = await runConformanceSuite({
        requirements,
        via: 'lambda',
        // Its own folder: the in-process run (conformance.test.ts) may write `.conformance/<rev>` meanwhile.
        outputDir: fileURLToPath(new URL(`../../.conformance/${requirements}-lambda`, import.meta.url)),
      });
      t.diagnostic(renderReport(report));
      t.diagnostic(report.summary);

      assert.ok(report.scenarios.length > 0, 'the suite ran no scenario');
      assert.deepEqual(report.unexpected, [], 'unexpected failures');
      assert.deepEqual(report.stale, [], 'expected-failures entries that now pass');
      assert.equal(report.suiteExitCode, 0, 'the suite itself reported failing required scenarios');
    });
  }
});
