/**
 * `node --import tsx lib/bundling/lambda-bundler-cli.ts <entry> <outdir> <absWorkingDir> [--console]`: {@link buildLambda}
 * as a process, for CDK's local bundling hook, which must finish synchronously (esbuild plugins need its
 * asynchronous API); `--console` also builds the operator console into `<outdir>/console`. Exits 1 with the
 * reason on stderr when the bundle cannot be built.
 */
import { join } from 'node:path';
import { buildConsole, CONSOLE_OUTPUT_DIR } from './console-bundler.js';
import { buildLambda } from './lambda-bundler.js';

const [entry, outdir, absWorkingDir, flag] = process.argv.slice(2);
if (
  entry === undefined ||
  outdir === undefined ||
  absWorkingDir === undefined ||
  (flag !== undefined && flag !== '--console')
) {
  process.stderr.write('usage: lambda-bundler-cli.ts <entry> <outdir> <absWorkingDir> [--console]\n');
  process.exit(2);
}
try {
  await buildLambda({ entry, outdir, absWorkingDir });
  if (flag === '--console')
    await buildConsole({ projectRoot: absWorkingDir, outdir: join(outdir, CONSOLE_OUTPUT_DIR) });
} catch (error) {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}${cause}\n`);
  process.exit(1);
}
