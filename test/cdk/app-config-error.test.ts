/**
 * The CDK app entry (`bin/app.ts`, what `npm run synth` runs) refuses a bad configuration with one clear
 * line and a non-zero exit, never an uncaught stack trace.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');

/** Runs the app as the CDK CLI does: context in `CDK_CONTEXT_JSON`, output to a scratch folder. */
function runApp(context: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
    cwd: root,
    env: {
      ...process.env,
      CDK_CONTEXT_JSON: JSON.stringify(context),
      CDK_OUTDIR: resolve(root, '.local', 'app-config-error.out'),
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('bin/app.ts with a bad configuration', () => {
  it('prints one line naming the missing auth values and exits 2', () => {
    const { status, stderr, stdout } = runApp({ stage: 'prod' });
    assert.equal(status, 2, stderr);
    assert.equal(stdout, '');
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0] ?? '', /^error: context "authIssuer" and "authJwksUrl" are required/);
    assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
  });
});
