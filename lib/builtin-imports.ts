/**
 * An esbuild plugin that serves a few Node.js built-ins to the bundle without Node's ESM wrapper.
 *
 * Why: when ESM code imports a built-in (`import { request } from 'node:http'`, or `await import('node:http')`),
 * Node.js builds a facade module and copies every export into it, reading each property, getters included.
 * On Node 22 `http` has getters for `WebSocket`, `CloseEvent` and `MessageEvent`, which load the whole of undici
 * (`fetch`, `Request`, `Response`…): 43-69 ms and ~70 ms of CPU in a fresh Node 22, measured with
 * `await import('node:http')`, against ~10 ms for the module itself. `process`'s facade reads
 * `stdin`/`stdout`/`stderr` and so builds those streams (~10 ms). Our code and the AWS SDK import both. The
 * plugin answers those imports with a small module that takes the built-in from
 * `process.getBuiltinModule()` (Node 22.3+, so on the Lambda runtime; it returns the CommonJS exports, no
 * facade) and re-exports its plain data properties, leaving accessors unread. An import of an accessor name
 * then fails the build ("No matching export"), never silently.
 */
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'builtin-without-facade';

/** Built-ins whose ESM facade reads an expensive getter (see the module comment). */
export const FACADE_FREE_BUILTINS: readonly string[] = ['http', 'process'];

const require = createRequire(import.meta.url);

/**
 * ESM source for `name`: the module from `process.getBuiltinModule`, as `default` and as one named export per
 * plain data property (accessors are skipped, so nothing lazy is triggered at load).
 */
export function builtinModuleSource(name: string): string {
  const exported = require(`node:${name}`) as object;
  const names = Object.keys(exported).filter((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(exported, key);
    return (
      descriptor !== undefined && 'value' in descriptor && key !== 'default' && /^[A-Za-z_$][\w$]*$/.test(key)
    );
  });
  const lines = [
    `const m = process.getBuiltinModule(${JSON.stringify(`node:${name}`)});`,
    'export default m;',
  ];
  for (const key of names) lines.push(`export const ${key} = m.${key};`);
  return lines.join('\n');
}

/** The plugin (see the module comment): static and dynamic ESM imports of `node:x` and `x` alike. */
export function facadeFreeBuiltins(): Plugin {
  const filter = new RegExp(`^(?:node:)?(?:${FACADE_FREE_BUILTINS.join('|')})$`);
  return {
    name: 'facade-free-builtins',
    setup(build) {
      // Only ESM imports get a facade; a bundled CommonJS `require('http')` already gets the plain exports.
      build.onResolve({ filter }, (args) =>
        args.kind === 'import-statement' || args.kind === 'dynamic-import'
          ? { path: args.path.replace(/^node:/, ''), namespace: NAMESPACE }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: builtinModuleSource(args.path),
        loader: 'js',
      }));
    },
  };
}
