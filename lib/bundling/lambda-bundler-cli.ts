/**
 * `node --import tsx lib/bundling/lambda-bundler-cli.ts <entry> <outdir> <absWorkingDir>`: {@link buildLambda} as a
 * process, for CDK's local bundling hook, which must finish synchronously (esbuild plugins need its
 * asynchronous API). Exits 1 with the reason on stderr when the bundle cannot be built.
 */
import { buildLambda } from './lambda-bundler.js';

const [entry, outdir, absWorkingDir] = process.argv.slice(2);
if (entry === undefined || outdir === undefined || absWorkingDir === undefined) {
  process.stderr.write('usage: lambda-bundler-cli.ts <entry> <outdir> <absWorkingDir>\n');
  process.exit(2);
}
try {
  await buildLambda({ entry, outdir, absWorkingDir });
} catch (error) {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}${cause}\n`);
  process.exit(1);
}
