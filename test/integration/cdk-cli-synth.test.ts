/**
 * `cdk synth` through the real CDK CLI succeeds offline with no AWS credentials and telemetry off, as CI and
 * `npm run synth` run it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const run = promisify(execFile);

/** The environment minus anything that could reach or authenticate to AWS. */
function offlineEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('AWS_') && !key.startsWith('CDK_')) env[key] = value;
  return {
    ...env,
    HOME: home,
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

describe('cdk synth through the CLI', () => {
  it('writes the dev template offline, without AWS credentials, with streaming integrations', async () => {
    // Prepare: an empty HOME, so no ~/.aws profile can be picked up.
    const scratch = await mkdtemp(join(tmpdir(), 'bos-mcp-cli-synth-'));
    try {
      const out = join(scratch, 'cdk.out');
      // Act
      await run(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', out], {
        cwd: root,
        env: offlineEnv(scratch),
        timeout: 300_000,
      });
      // Assess
      const template = JSON.parse(await readFile(join(out, 'BosMcp-dev.template.json'), 'utf8')) as {
        Resources: Record<
          string,
          { Type: string; Properties?: { Integration?: { ResponseTransferMode?: string } } }
        >;
      };
      const methods = Object.values(template.Resources).filter(
        (resource) =>
          resource.Type === 'AWS::ApiGateway::Method' &&
          resource.Properties?.Integration?.ResponseTransferMode,
      );
      assert.ok(methods.length >= 5, `expected the MCP and metadata methods, found ${methods.length}`);
      for (const method of methods)
        assert.equal(method.Properties?.Integration?.ResponseTransferMode, 'STREAM');
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
