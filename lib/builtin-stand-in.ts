/**
 * The shared shape of the esbuild plugins that serve one dependency's import of a Node.js built-in with a
 * stand-in that loads the real module on first use (`instanceof-only-web-streams.ts`, `lazy-zlib-crc32.ts`):
 * only ESM `import` statements from the listed importers are answered, and each importer's source is checked
 * first, so a dependency update that uses the built-in beyond what the stand-in covers fails the build instead of
 * breaking at run time. Every other importer gets the real module.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

/** What one stand-in plugin serves, to whom, and how it checks that it may. */
export interface BuiltinStandIn {
  /** Plugin name, also the esbuild namespace of the stand-in module. */
  readonly name: string;
  /** The built-in's import paths (with and without `node:`). */
  readonly filter: RegExp;
  /** Importers (path suffixes, `/`-separated) that get the stand-in. */
  readonly importers: readonly string[];
  /** Throws unless the importer's `source` uses the built-in only as the stand-in allows. */
  readonly check: (source: string, importer: string) => void;
  /** The stand-in module's JavaScript. */
  readonly source: string;
}

/**
 * `source` with every one-line string literal's contents blanked (`""`), so a name inside a string (an error
 * message) does not count as a use of a binding. Comments are not stripped, which can only make a check stricter.
 */
export function withoutStringLiterals(source: string): string {
  return source.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
}

/** The esbuild plugin for `standIn` (see the module comment). */
export function builtinStandInPlugin(standIn: BuiltinStandIn): Plugin {
  return {
    name: standIn.name,
    setup(build) {
      build.onResolve({ filter: standIn.filter }, (args) => {
        const importer = args.importer.replaceAll('\\', '/');
        if (args.kind !== 'import-statement') return undefined;
        if (!standIn.importers.some((suffix) => importer.endsWith(suffix))) return undefined;
        standIn.check(readFileSync(args.importer, 'utf8'), importer);
        return { path: args.path.replace(/^node:/, ''), namespace: standIn.name };
      });
      build.onLoad({ filter: /.*/, namespace: standIn.name }, () => ({
        contents: standIn.source,
        loader: 'js',
      }));
    },
  };
}
