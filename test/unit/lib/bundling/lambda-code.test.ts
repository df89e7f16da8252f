/**
 * The platform function's code asset (`lib/bundling/lambda-code.ts`): bundled at synth with the local stack's esbuild
 * options, so the deployed asset holds `index.mjs` plus its lazily loaded chunks, exactly what the local
 * stack runs. A handler that does not bundle fails the synth with a named error.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LAMBDA_CHUNK_DIR, LAMBDA_HANDLER, LAMBDA_OUTPUT_FILE } from '../../../../lib/bundling/options.js';
import { bundledLambdaCode, LambdaBundlingError } from '../../../../lib/bundling/lambda-code.js';
import { PROJECT_ROOT } from '../../../../lib/project.js';

const FIXTURE_ENTRY = new URL('./fixtures/lazy-entry.ts', import.meta.url).pathname;

const scratch = mkdtempSync(join(tmpdir(), 'bos-mcp-lambda-code-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Synthesizes one function with the bundled code; returns the asset folder CDK staged for it. */
function synthFunction(entry: string, outdir: string): { assetDir: string; template: Template } {
  const app = new App({ outdir });
  const stack = new Stack(app, 'CodeTest');
  new LambdaFunction(stack, 'Handler', {
    runtime: Runtime.NODEJS_22_X,
    handler: LAMBDA_HANDLER,
    code: bundledLambdaCode({ entry, projectRoot: PROJECT_ROOT }),
  });
  const template = Template.fromStack(stack);
  app.synth();
  const assets = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
  assert.equal(assets.length, 1, `one staged asset, got ${assets.join(', ')}`);
  return { assetDir: join(outdir, assets[0] ?? ''), template };
}

describe('bundledLambdaCode', () => {
  it('stages index.mjs and its lazily loaded chunks as the function asset', () => {
    // Act
    const { assetDir, template } = synthFunction(FIXTURE_ENTRY, join(scratch, 'ok'));
    // Assess
    const entry = readFileSync(join(assetDir, LAMBDA_OUTPUT_FILE), 'utf8');
    const chunks = readdirSync(join(assetDir, LAMBDA_CHUNK_DIR)).filter((name) => name.endsWith('.mjs'));
    assert.ok(
      chunks.some((name) => name.startsWith('lazy-part-')),
      chunks.join(', '),
    );
    assert.ok(!entry.includes('lazy-part-marker-7f3a'), 'the lazy module is not inlined in the entry');
    assert.ok(existsSync(join(assetDir, `${LAMBDA_OUTPUT_FILE}.map`)), 'the source map ships beside it');
    template.hasResourceProperties('AWS::Lambda::Function', { Handler: LAMBDA_HANDLER });
  });

  it('fails the synth naming LambdaBundlingError when the handler cannot be bundled', () => {
    // CDK wraps what the bundler throws (FailedToBundleAsset) and keeps its name and message.
    assert.throws(
      () => synthFunction(join(scratch, 'missing-handler.ts'), join(scratch, 'broken')),
      new RegExp(`${new LambdaBundlingError('').name}: cannot bundle .*missing-handler\\.ts`),
    );
  });
});
