/**
 * An esbuild plugin that keeps `@middy/core` from loading Node's web streams at every cold start.
 *
 * Why: `@middy/core` v6 has `import { ReadableStream } from 'node:stream/web'` at its top and uses the name in
 * one place only, `handlerBody._readableState || handlerBody instanceof ReadableStream`. Our entries always
 * hand it a Node `Readable` (`lambda/aws/response-stream.ts`), so that test never reaches the right-hand side,
 * yet the static import makes Node load and compile `stream/web` with its readable, writable, transform,
 * encoding and compression streams before the handler exists (about 7 ms in a fresh Node 22 on its own; about
 * 2 ms of CPU in the platform's cold start, whose first request still loads the readable and writable streams
 * through WebCrypto and the AWS SDK: docs/aws.md "Cold start").
 *
 * The plugin answers that import, for the importers listed in {@link INSTANCEOF_ONLY_IMPORTERS} only, with a
 * stand-in whose `Symbol.hasInstance` asks the real `ReadableStream` (from `process.getBuiltinModule`, no ESM
 * facade), so `x instanceof ReadableStream` gives exactly the answer it gave before, loading web streams on
 * first use instead of at load. The stand-in is nothing else (not constructible, no other names), so the build
 * checks the importer's source: every use of the name must be the right operand of `instanceof`, and a
 * dependency update that uses it differently fails the build instead of breaking at run time. Any other
 * importer of `stream/web` gets the real module.
 */
import type { Plugin } from 'esbuild';

import { builtinStandInPlugin, withoutStringLiterals } from './builtin-stand-in.js';

/** Importers (path suffixes) whose `ReadableStream` from `stream/web` is used only with `instanceof`. */
export const INSTANCEOF_ONLY_IMPORTERS: readonly string[] = ['/node_modules/@middy/core/index.js'];

/** The stand-in module served in place of `node:stream/web` (see the module comment). */
export const INSTANCEOF_ONLY_SOURCE = [
  "const real = () => process.getBuiltinModule('node:stream/web').ReadableStream;",
  'export const ReadableStream = Object.freeze({',
  '  [Symbol.hasInstance]: (value) => value instanceof real(),',
  '});',
].join('\n');

/** The stand-in could not stand in for the importer's use of `stream/web` (see the module comment). */
export class WebStreamsStandInError extends Error {
  override readonly name = 'WebStreamsStandInError';
  readonly code = 'web_streams_stand_in_unsafe';
}

/**
 * Throws unless `source` imports exactly `{ ReadableStream }` from `stream/web` and uses the name only as the
 * right operand of `instanceof`.
 */
export function assertInstanceofOnly(source: string, importer: string): void {
  const imports = [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](?:node:)?stream\/web["']/g)];
  const names = imports.flatMap((match) => (match[1] ?? '').split(',').map((name) => name.trim()));
  const code = withoutStringLiterals(
    source.replace(/import\s*\{[^}]*\}\s*from\s*["'](?:node:)?stream\/web["'];?/g, ''),
  );
  const uses = [...code.matchAll(/\bReadableStream\b/g)].length;
  const instanceofUses = [...code.matchAll(/\binstanceof\s+ReadableStream\b/g)].length;
  if (imports.length !== 1 || names.join(',') !== 'ReadableStream' || uses !== instanceofUses) {
    throw new WebStreamsStandInError(
      `${importer} uses stream/web beyond \`instanceof ReadableStream\`; remove it from INSTANCEOF_ONLY_IMPORTERS`,
    );
  }
}

/** The plugin (see the module comment). */
export function instanceofOnlyWebStreams(): Plugin {
  return builtinStandInPlugin({
    name: 'instanceof-only-web-streams',
    filter: /^(?:node:)?stream\/web$/,
    importers: INSTANCEOF_ONLY_IMPORTERS,
    check: assertInstanceofOnly,
    source: INSTANCEOF_ONLY_SOURCE,
  });
}
