/**
 * An esbuild plugin that keeps the AWS SDK from loading `node:zlib` at every cold start for a function it
 * never calls there.
 *
 * Why: `@smithy/core`'s checksum module `Crc32Node.js` has `import * as zlib from "node:zlib"` at its top and
 * reads `zlib.crc32` once, while it loads, to pick a native CRC32 class; esbuild keeps the module (its top
 * level has that side effect) although no DynamoDB call computes a CRC32. Loading `zlib` (with its ESM facade)
 * cost about 6 ms of CPU in a fresh Node 22 on its own (docs/local-stack.md "Cold start figures").
 *
 * The plugin answers that import, for the importers listed in {@link CRC32_ONLY_IMPORTERS} only, with a
 * stand-in exporting one name, `crc32`: a function that calls the real `zlib.crc32` (from
 * `process.getBuiltinModule`, no ESM facade) with the same arguments, or `undefined` on a Node.js without
 * `zlib.crc32`, exactly as the real module would answer the importer's `typeof` test. `zlib` then loads on the
 * first CRC32 computed instead of at load. The build checks the importer's source: it must import the module
 * as a namespace and read nothing from it but `crc32`, so a dependency update that uses more of `zlib` fails
 * the build instead of breaking at run time. Any other importer of `zlib` gets the real module.
 */
import type { Plugin } from 'esbuild';

import { builtinStandInPlugin, withoutStringLiterals } from './builtin-stand-in.js';

/** Importers (path suffixes) that read nothing of `zlib` but `crc32`. */
export const CRC32_ONLY_IMPORTERS: readonly string[] = [
  '/node_modules/@smithy/core/dist-es/submodules/checksum/crc32/Crc32Node.js',
];

/**
 * The stand-in module served in place of `node:zlib` (see the module comment). `zlib.crc32` exists from
 * Node.js 22.2.0 and 20.15.0 (its "Added in" line in the Node.js docs); the version test answers whether it
 * exists without loading `zlib`.
 */
export const CRC32_ONLY_SOURCE = [
  "const [major, minor] = process.versions.node.split('.').map(Number);",
  'const native = major > 22 || (major === 22 && minor >= 2) || (major === 20 && minor >= 15);',
  'export const crc32 = native',
  "  ? (...args) => process.getBuiltinModule('node:zlib').crc32(...args)",
  '  : undefined;',
].join('\n');

/** The stand-in could not stand in for the importer's use of `zlib` (see the module comment). */
export class ZlibStandInError extends Error {
  override readonly name = 'ZlibStandInError';
  readonly code = 'zlib_stand_in_unsafe';
}

/**
 * Throws unless `source` imports `zlib` exactly once, as a namespace (`import * as z from "node:zlib"`), and
 * every use of that namespace reads `crc32` from it.
 */
export function assertCrc32Only(source: string, importer: string): void {
  const fromZlib = /import\s*([^;]*?)\s*from\s*["'](?:node:)?zlib["'];?/g;
  const imports = [...source.matchAll(fromZlib)];
  const namespace = /^\*\s*as\s+([A-Za-z_$][\w$]*)$/.exec(imports[0]?.[1] ?? '')?.[1];
  const code = withoutStringLiterals(source.replace(fromZlib, ''));
  const uses = namespace === undefined ? 0 : [...code.matchAll(usesOf(namespace))].length;
  const crc32Uses = namespace === undefined ? 0 : [...code.matchAll(usesOf(namespace, '\\.crc32\\b'))].length;
  if (imports.length !== 1 || namespace === undefined || uses !== crc32Uses) {
    throw new ZlibStandInError(
      `${importer} uses zlib beyond reading \`crc32\`; remove it from CRC32_ONLY_IMPORTERS`,
    );
  }
}

/** Uses of `name` as an identifier (not a property name), optionally followed by `suffix`. */
function usesOf(name: string, suffix = ''): RegExp {
  const escaped = name.replaceAll('$', '\\$');
  return new RegExp(`(?<![\\w$.])${escaped}(?![\\w$])${suffix}`, 'g');
}

/** The plugin (see the module comment). */
export function lazyZlibCrc32(): Plugin {
  return builtinStandInPlugin({
    name: 'lazy-zlib-crc32',
    filter: /^(?:node:)?zlib$/,
    importers: CRC32_ONLY_IMPORTERS,
    check: assertCrc32Only,
    source: CRC32_ONLY_SOURCE,
  });
}
