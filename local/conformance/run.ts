/**
 * `npm run conformance [-- --requirements <revision>] [--scenario <name>]`: runs the official conformance suite against the
 * conformance app and exits non-zero on any unexpected failure or stale expected-failures entry. Without
 * `--requirements` it runs both released revisions: 2025-11-25 (session-ful) and 2026-07-28 (stateless).
 * `--scenario` runs one scenario alone (judged against the expected-failures file of `--requirements`,
 * default 2026-07-28), e.g. `npm run conformance -- --scenario tasks-lifecycle`.
 */
import { parseArgs } from 'node:util';
import { ConformanceSetupError } from './start.js';
import { renderReport, runConformanceSuite } from './suite.js';

const { values } = parseArgs({
  options: {
    requirements: { type: 'string' },
    scenario: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const via = process.env.CONFORMANCE_VIA === 'lambda' ? 'lambda' : 'node';

const revisions =
  values.requirements !== undefined
    ? [values.requirements]
    : values.scenario !== undefined
      ? ['2026-07-28']
      : ['2025-11-25', '2026-07-28'];

try {
  let ok = true;
  for (const requirements of revisions) {
    const report = await runConformanceSuite({
      requirements,
      ...(values.scenario !== undefined && { scenario: values.scenario }),
      via,
      onOutput: values.verbose === true ? (chunk) => process.stdout.write(chunk) : undefined,
    });
    process.stdout.write(renderReport(report));
    ok &&= report.suiteExitCode === 0 && report.unexpected.length === 0 && report.stale.length === 0;
  }
  process.exit(ok ? 0 : 1);
} catch (error) {
  if (!(error instanceof ConformanceSetupError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
