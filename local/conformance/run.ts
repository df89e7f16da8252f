/**
 * `npm run conformance [-- --requirements <revision>]`: runs the official conformance suite against the
 * conformance app and exits non-zero on any unexpected failure or stale expected-failures entry.
 */
import { parseArgs } from 'node:util';
import { ConformanceSetupError } from './start.js';
import { renderReport, runConformanceSuite } from './suite.js';

const { values } = parseArgs({
  options: {
    requirements: { type: 'string', default: '2025-11-25' },
    verbose: { type: 'boolean', default: false },
  },
});
const via = process.env.CONFORMANCE_VIA === 'lambda' ? 'lambda' : 'node';

try {
  const report = await runConformanceSuite({
    requirements: values.requirements ?? '2025-11-25',
    via,
    onOutput: values.verbose === true ? (chunk) => process.stdout.write(chunk) : undefined,
  });
  process.stdout.write(renderReport(report));
  const ok = report.suiteExitCode === 0 && report.unexpected.length === 0 && report.stale.length === 0;
  process.exit(ok ? 0 : 1);
} catch (error) {
  if (!(error instanceof ConformanceSetupError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
