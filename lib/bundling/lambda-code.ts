/**
 * The platform function's code asset: the handler bundled on this machine by esbuild with exactly the options
 * the local stack uses (`lambdaBuildOptions` in `lib/bundling/options.ts`).
 *
 * Why not `NodejsFunction`: its bundling always passes esbuild `--outfile`, which rules out code splitting
 * (esbuild needs `outdir` for it), and splitting keeps code that only runs on a later call out of the
 * cold-start parse (`lib/bundling/options.ts`, `splitting`).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { LambdaBundlingError } from './lambda-bundler.js';

export { LambdaBundlingError } from './lambda-bundler.js';

/** The bundler as a process: CDK's local bundling hook is synchronous, esbuild plugins are not. */
const BUNDLER_CLI = fileURLToPath(new URL('./lambda-bundler-cli.ts', import.meta.url));

/** Where {@link bundledLambdaCode} finds the handler. */
export interface BundledLambdaCodeProps {
  /** Absolute path of the handler source file. */
  readonly entry: string;
  /** Absolute path of the repository root: esbuild's working directory. */
  readonly projectRoot: string;
  /**
   * Also build the operator console into the asset's `console/` folder (`lib/bundling/console-bundler.ts`).
   * @default false
   */
  readonly withConsole?: boolean;
}

/**
 * A Lambda `Code` whose asset is the esbuild output (`index.mjs`, its chunks and source maps), built by
 * `buildLambda` (`lib/bundling/lambda-bundler.ts`) exactly as the local stack builds it. The asset hash is taken
 * from that output, as `NodejsFunction` does, so an unchanged bundle is not uploaded again. When the app
 * skips bundling (`aws:cdk:bundling-stacks`), CDK does not call the bundler at all.
 */
export function bundledLambdaCode(props: BundledLambdaCodeProps): Code {
  return Code.fromAsset(props.projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds or throws (the machines have no Docker).
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      local: {
        tryBundle(outputDir: string): boolean {
          const run = spawnSync(
            process.execPath,
            [
              '--import',
              'tsx',
              BUNDLER_CLI,
              props.entry,
              outputDir,
              props.projectRoot,
              ...(props.withConsole === true ? ['--console'] : []),
            ],
            { cwd: props.projectRoot, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] },
          );
          if (run.status !== 0) {
            const reason = (run.stderr ?? '').trim() || run.error?.message || `exit ${run.status}`;
            throw new LambdaBundlingError(`cannot bundle ${props.entry}: ${reason}`);
          }
          return true;
        },
      },
    },
  });
}
