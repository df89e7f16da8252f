/**
 * Runs esbuild for one Lambda entry with {@link lambdaBuildOptions}, plus the one fix code splitting needs.
 *
 * esbuild puts the target of an `import()` in a chunk of its own. When that target is CommonJS (Ajv is), the
 * chunk exports only `default` (the `module.exports` object), so `const { Ajv } = await import('ajv')`
 * gets `undefined`, while the same code works unbundled and in a single-file bundle (esbuild issues #3245,
 * #4377). {@link commonJsDynamicImports} therefore routes such an `import()` through a small ESM facade
 * that re-exports the module's names one by one, which esbuild can express in a chunk. After the build,
 * {@link assertNoCommonJsDynamicImport} fails it if any `import()` still reaches a CommonJS module
 * directly, so a new dependency cannot bring the bug back silently.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { build } from 'esbuild';
import type { Metafile, Plugin } from 'esbuild';
import { lambdaBuildOptions } from './bundling.js';
import type { LambdaBuildTarget } from './bundling.js';

const FACADE_NAMESPACE = 'cjs-dynamic-import-facade';

/** esbuild could not bundle a Lambda entry, or produced a bundle that would fail at run time. */
export class LambdaBundlingError extends Error {
  override readonly name = 'LambdaBundlingError';
  readonly code = 'bundling_failed';
}

/** Bundles `target.entry` into `target.outdir` (see the module comment); resolves with esbuild's metafile. */
export async function buildLambda(target: LambdaBuildTarget): Promise<Metafile> {
  let metafile: Metafile;
  try {
    ({ metafile } = await build({
      ...lambdaBuildOptions(target),
      metafile: true,
      plugins: [commonJsDynamicImports()],
    }));
  } catch (error) {
    throw new LambdaBundlingError(`cannot bundle ${target.entry}`, { cause: error });
  }
  assertNoCommonJsDynamicImport(metafile);
  return metafile;
}

/** The esbuild plugin that sends `import()` of a CommonJS file through an ESM facade. */
export function commonJsDynamicImports(): Plugin {
  return {
    name: 'commonjs-dynamic-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.namespace === FACADE_NAMESPACE) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: 'import-statement',
          importer: args.importer,
          resolveDir: args.resolveDir,
        });
        if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== 'file')
          return undefined;
        if (!(await isCommonJs(resolved.path))) return undefined;
        return { path: resolved.path, namespace: FACADE_NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: FACADE_NAMESPACE }, (args) => ({
        contents: facadeSource(args.path),
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
    },
  };
}

/**
 * ESM source re-exporting every name of the CommonJS module at `path`. The names are read by loading the
 * module here, at build time, which is what Node.js itself would expose to an `import()`.
 */
function facadeSource(path: string): string {
  const exported = createRequire(path)(path) as unknown;
  const names =
    exported !== null && (typeof exported === 'object' || typeof exported === 'function')
      ? Object.keys(exported).filter((name) => name !== 'default' && name !== '__esModule')
      : [];
  const lines = [`import * as ns from ${JSON.stringify(path)};`, 'export default ns.default;'];
  names.forEach((name, index) => {
    lines.push(
      `const e${index} = ns[${JSON.stringify(name)}];`,
      `export { e${index} as ${JSON.stringify(name)} };`,
    );
  });
  return lines.join('\n');
}

/** Whether esbuild will treat `path` as CommonJS: by extension, the package's `type`, then by syntax. */
async function isCommonJs(path: string): Promise<boolean> {
  const extension = extname(path);
  if (extension === '.cjs' || extension === '.cts') return true;
  if (extension !== '.js' && extension !== '.jsx') return false;
  if ((await packageType(dirname(path))) === 'module') return false;
  const source = await readFile(path, 'utf8');
  return !/^\s*(?:import\s*[\w*{'"]|export\s+(?:\*|\{|default\b|const\b|let\b|var\b|function\b|class\b|async\b))/m.test(
    source,
  );
}

async function packageType(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    try {
      const manifest = JSON.parse(await readFile(join(current, 'package.json'), 'utf8')) as {
        type?: unknown;
      };
      return typeof manifest.type === 'string' ? manifest.type : undefined;
    } catch {
      // No package.json here (or not JSON): look one folder up.
    }
    if (dirname(current) === current) return undefined;
  }
}

/** Throws when an `import()` in the bundle still targets a CommonJS module directly (see the module comment). */
export function assertNoCommonJsDynamicImport(metafile: Metafile): void {
  const broken: string[] = [];
  for (const [importer, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.kind === 'dynamic-import' && metafile.inputs[imported.path]?.format === 'cjs')
        broken.push(`${importer} -> ${imported.path}`);
    }
  }
  if (broken.length > 0) {
    throw new LambdaBundlingError(
      `import() of a CommonJS module would see only its default export after code splitting: ${broken.join(', ')}`,
    );
  }
}
