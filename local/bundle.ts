/**
 * Bundles a Lambda entry exactly as CDK deploys it (`lib/bundling.ts`), so the local stack runs the same
 * output under the AWS Lambda runtime client.
 */
import { readFile, rm } from 'node:fs/promises';
import { basename, extname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { LAMBDA_ESBUILD_OPTIONS, LAMBDA_HANDLER, LAMBDA_OUTPUT_FILE } from '../lib/bundling.js';
import { LOCAL_DIR, REPO_ROOT, fromRepo } from './paths.js';

/** Options of {@link bundleHandler}. */
export interface BundleOptions {
  /** Path of the handler source file (absolute, or relative to the repository root). */
  entry: string;
  /**
   * Folder that receives `index.mjs` (the function's task root). Keep it inside the repository so external
   * `@aws-sdk/*` imports resolve from its `node_modules`.
   * @default `.local/bundle/<entry file name without extension>`
   */
  outDir?: string;
}

/** A bundled function: what the runtime client needs to load it, and its size. */
export interface BundleResult {
  /** Folder holding the bundle: `LAMBDA_TASK_ROOT` for the runtime client. */
  taskRoot: string;
  /** The `_HANDLER` setting, e.g. `index.handler`. */
  handler: string;
  /** Absolute path of the bundled entry file. */
  file: string;
  /** Size of the minified bundle in bytes (source map excluded). */
  bytes: number;
  /** Size of the minified bundle after gzip, in bytes. */
  gzipBytes: number;
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
  try {
    await build({
      ...LAMBDA_ESBUILD_OPTIONS,
      mainFields: [...LAMBDA_ESBUILD_OPTIONS.mainFields],
      external: [...LAMBDA_ESBUILD_OPTIONS.external],
      entryPoints: [entry],
      outfile: file,
      absWorkingDir: REPO_ROOT,
      logLevel: 'silent',
    });
  } catch (error) {
    throw new BundleError(entry, { cause: error });
  }
  const code = await readFile(file);
  return {
    taskRoot,
    handler: LAMBDA_HANDLER,
    file,
    bytes: code.byteLength,
    gzipBytes: gzipSync(code).byteLength,
  };
}
