/**
 * Builds the operator console (`console/`, docs/console.md) into a folder of static files: one esbuild run
 * for the browser script, and the page and style copied as they are. The platform function serves the
 * folder from its task root (`lambda/handlers/console-assets.ts`), so CDK and the local stack ship the same
 * files; no framework build chain, and nothing in `lambda/` imports the console's source.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CONSOLE_FILES } from '../routes.js';

/** Folder of the console inside the function's task root; the asset handler reads `./console/`. */
export const CONSOLE_OUTPUT_DIR = 'console';

/** The console could not be built. */
export class ConsoleBundlingError extends Error {
  override readonly name = 'ConsoleBundlingError';
  readonly code = 'console_bundling_failed';
}

/** Where {@link buildConsole} reads and writes. */
export interface ConsoleBuildTarget {
  /** The repository root (holds `console/`). */
  projectRoot: string;
  /** Folder that receives `index.html`, `app.js`, `app.css` and `icon.svg`. */
  outdir: string;
}

/** Bundles `console/main.ts` for browsers and copies the page, its style and its icon beside it. */
export async function buildConsole(target: ConsoleBuildTarget): Promise<void> {
  const source = join(target.projectRoot, 'console');
  try {
    await mkdir(target.outdir, { recursive: true });
    await build({
      entryPoints: [join(source, 'main.ts')],
      outfile: join(target.outdir, 'app.js'),
      absWorkingDir: target.projectRoot,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      // Evergreen browsers only: the console relies on fetch streams, crypto.subtle and `<dialog>`-era DOM.
      target: ['chrome120', 'firefox120', 'safari17'],
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
    });
    // The page, and every file the routes serve that esbuild did not write.
    for (const file of ['index.html', ...CONSOLE_FILES.filter((name) => name !== 'app.js')])
      await copyFile(join(source, file), join(target.outdir, file));
  } catch (error) {
    throw new ConsoleBundlingError('cannot build the console', { cause: error });
  }
}
