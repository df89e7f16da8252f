/**
 * Bundles a Lambda entry exactly as CDK deploys it (`lib/bundling/options.ts`), so the local stack runs the same
 * output under the AWS Lambda runtime client.
 */
import { readFile, rm } from 'node:fs/promises';
import { basename, extname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { LAMBDA_HANDLER, LAMBDA_OUTPUT_FILE } from '../lib/bundling/options.js';
import { buildConsole, CONSOLE_OUTPUT_DIR } from '../lib/bundling/console-bundler.js';
import { buildLambda } from '../lib/bundling/lambda-bundler.js';
import { LOCAL_DIR, REPO_ROOT, fromRepo } from './paths.js';

/** Options of {@link bundleHandler}. */
export interface BundleOptions {
  /** Path of the handler source file (absolute, or relative to the repository root). */
  entry: string;
  /**
   * Folder that receives `index.mjs` and its chunks (the function's task root). Keep it inside the
   * repository so external `@aws-sdk/*` imports resolve from its `node_modules`.
   * @default `.local/bundle/<entry file name without extension>`
   */
  outDir?: string;
  /**
   * Also build the operator console into `<outDir>/console`, as the deployed asset has it.
   * @default false
   */
  withConsole?: boolean;
}

/** A bundled function: what the runtime client needs to load it, and its size. */
export interface BundleResult {
  /** Folder holding the bundle: `LAMBDA_TASK_ROOT` for the runtime client. */
  taskRoot: string;
  /** The `_HANDLER` setting, e.g. `index.handler`. */
  handler: string;
  /** Absolute path of the bundled entry file. */
  file: string;
  /** Size of every code file (entry and chunks; source maps excluded), minified, in bytes. */
  bytes: number;
  /** The same files after gzip (each on its own), in bytes. */
  gzipBytes: number;
  /**
   * Bytes Node.js loads before the handler can run: the entry and the chunks it imports statically (the
   * rest is loaded by `import()` on first use).
   */
  coldStartBytes: number;
  /** Absolute paths of those files: the entry first, then the chunks it imports statically. */
  coldStartFiles: string[];
}

/** Raised when esbuild cannot bundle an entry. */
export class BundleError extends Error {
  override readonly name = 'BundleError';
  readonly code = 'bundle_failed';
  constructor(entry: string, options: { cause: unknown }) {
    super(`cannot bundle ${relative(REPO_ROOT, entry)}`, options);
  }
}

/** The default task root of an entry: `.local/bundle/<name>`. */
export function defaultBundleDir(entry: string): string {
  const file = fromRepo(entry);
  return join(LOCAL_DIR, 'bundle', basename(file, extname(file)));
}

/**
 * Bundles one handler file with the deploy-time esbuild options and reports where it went.
 * The output folder is emptied first so a stale bundle can never be loaded.
 */
export async function bundleHandler(options: BundleOptions): Promise<BundleResult> {
  const entry = fromRepo(options.entry);
  const taskRoot = resolve(options.outDir ?? defaultBundleDir(entry));
  const file = join(taskRoot, LAMBDA_OUTPUT_FILE);
  await rm(taskRoot, { recursive: true, force: true });
  let metafile: Metafile;
  try {
    metafile = await buildLambda({ entry, outdir: taskRoot, absWorkingDir: REPO_ROOT });
  } catch (error) {
    throw new BundleError(entry, { cause: error });
  }
  if (options.withConsole === true) {
    try {
      await buildConsole({ projectRoot: REPO_ROOT, outdir: join(taskRoot, CONSOLE_OUTPUT_DIR) });
    } catch (error) {
      throw new BundleError(entry, { cause: error });
    }
  }
  const sizes = await codeSizes(metafile, file);
  return { taskRoot, handler: LAMBDA_HANDLER, file, ...sizes };
}

/** Sizes of the code files esbuild wrote, and of the part loaded before the handler runs. */
async function codeSizes(
  metafile: Metafile,
  entryFile: string,
): Promise<Pick<BundleResult, 'bytes' | 'gzipBytes' | 'coldStartBytes' | 'coldStartFiles'>> {
  const outputs = Object.entries(metafile.outputs).filter(([path]) => !path.endsWith('.map'));
  let bytes = 0;
  let gzipBytes = 0;
  for (const [path] of outputs) {
    const code = await readFile(resolve(REPO_ROOT, path));
    bytes += code.byteLength;
    gzipBytes += gzipSync(code).byteLength;
  }
  // Follow static imports from the entry; `import()` targets are loaded only when first called. (esbuild
  // marks those targets as entry points too, so the entry is found by its file name.)
  const loaded = new Set<string>();
  const pending = outputs.map(([path]) => path).filter((path) => resolve(REPO_ROOT, path) === entryFile);
  for (let path = pending.shift(); path !== undefined; path = pending.shift()) {
    if (loaded.has(path)) continue;
    loaded.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? [])
      if (imported.kind === 'import-statement' && imported.path in metafile.outputs)
        pending.push(imported.path);
  }
  let coldStartBytes = 0;
  for (const path of loaded) coldStartBytes += metafile.outputs[path]?.bytes ?? 0;
  const coldStartFiles = [...loaded].map((path) => resolve(REPO_ROOT, path));
  return { bytes, gzipBytes, coldStartBytes, coldStartFiles };
}
