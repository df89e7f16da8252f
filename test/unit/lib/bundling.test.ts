/**
 * How Lambda entries are bundled (`lib/bundling.ts`, `local/bundle.ts`): one ESM entry `index.mjs` in the
 * task root, and code reached only through `import()` in chunk files that load on first use, so that a cold
 * start compiles only what the first request needs. The same options build the deployed asset
 * (`lib/lambda-code.ts`, tested in `lambda-code.test.ts`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import {
  LAMBDA_CHUNK_DIR,
  LAMBDA_HANDLER,
  LAMBDA_OUTPUT_FILE,
  lambdaBuildOptions,
} from '../../../lib/bundling.js';
import { bundleHandler } from '../../../local/bundle.js';
import { PLATFORM_HANDLER_ENTRY } from '../../../local/paths.js';
import { defaultNodePath } from '../../../local/runtime-api/index.js';

const FIXTURE_ENTRY = new URL('./fixtures/lazy-entry.ts', import.meta.url).pathname;
const LAZY_MARKER = 'lazy-part-marker-7f3a';

const scratch = mkdtempSync(join(tmpdir(), 'bos-mcp-bundling-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `source` as an ES module under the runtime's Node.js 22 and returns what it wrote to stdout. */
function runModule(source: string): string {
  return execFileSync(defaultNodePath(), ['--input-type=module', '-e', source], { encoding: 'utf8' });
}

const codeFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => join(dir, file));

describe('lambdaBuildOptions', () => {
  it('names the entry index and writes ESM .mjs files with code splitting into the task root', () => {
    const options = lambdaBuildOptions({ entry: '/src/handler.ts', outdir: '/task', absWorkingDir: '/src' });
    assert.deepEqual(options.entryPoints, { index: '/src/handler.ts' });
    assert.equal(options.outdir, '/task');
    assert.equal(options.format, 'esm');
    assert.equal(options.splitting, true);
    assert.deepEqual(options.outExtension, { '.js': '.mjs' });
    // The handler setting names the entry file without its extension.
    assert.equal(`${Object.keys(options.entryPoints).join()}.handler`, LAMBDA_HANDLER);
  });
});

describe('bundleHandler', () => {
  it('puts code reached only through import() in a chunk that loads on the first call', async () => {
    // Act
    const bundle = await bundleHandler({ entry: FIXTURE_ENTRY, outDir: join(scratch, 'lazy') });
    const files = codeFiles(bundle.taskRoot);
    const lazyFiles = files.filter((file) => readFileSync(file, 'utf8').includes(LAZY_MARKER));
    // Assess: index.mjs at the root, the lazy module in chunks/, and only the entry loaded at cold start.
    assert.equal(bundle.file, join(bundle.taskRoot, LAMBDA_OUTPUT_FILE));
    assert.equal(lazyFiles.length, 1);
    assert.equal(relative(bundle.taskRoot, lazyFiles[0] ?? '').split('/')[0], LAMBDA_CHUNK_DIR);
    assert.equal(bundle.coldStartFiles[0], bundle.file);
    assert.ok(!bundle.coldStartFiles.includes(lazyFiles[0] ?? ''), 'the lazy chunk loads at cold start');
    assert.ok(bundle.coldStartBytes < bundle.bytes);
    // The chunk really loads when called (it is ESM, resolved next to the entry).
    const href = JSON.stringify(pathToFileURL(bundle.file).href);
    const output = runModule(`const m = await import(${href}); process.stdout.write(await m.handler());`);
    assert.equal(output, `LAZY-PART-LOADED:${LAZY_MARKER}`);
  });

  it('keeps the named exports of a CommonJS module reached through import()', async () => {
    // Prepare: the shape of `import('ajv')` in the tool registry, with a CommonJS module of our own.
    const source = join(scratch, 'cjs-source');
    mkdirSync(source, { recursive: true });
    writeFileSync(
      join(source, 'lazy.cjs'),
      "'use strict';\nObject.defineProperty(exports, '__esModule', { value: true });\n" +
        "exports.cjsMarker = () => 'cjs-part-marker-91c2';\n",
    );
    writeFileSync(
      join(source, 'entry.mjs'),
      "export async function handler() { const { cjsMarker } = await import('./lazy.cjs'); return cjsMarker(); }\n",
    );
    // Act
    const bundle = await bundleHandler({ entry: join(source, 'entry.mjs'), outDir: join(scratch, 'cjs') });
    const href = JSON.stringify(pathToFileURL(bundle.file).href);
    const output = runModule(`const m = await import(${href}); process.stdout.write(await m.handler());`);
    // Assess: the module is still split off, and its name survives the chunk boundary.
    assert.ok(!readFileSync(bundle.file, 'utf8').includes('cjs-part-marker-91c2'));
    assert.equal(output, 'cjs-part-marker-91c2');
  });

  it('keeps Ajv and the Secrets Manager client out of what the platform entry loads at cold start', async () => {
    // Act
    const bundle = await bundleHandler({ entry: PLATFORM_HANDLER_ENTRY, outDir: join(scratch, 'platform') });
    const coldStart = bundle.coldStartFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
    const everything = codeFiles(bundle.taskRoot)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    // Assess: both are in the bundle (loaded on first use), neither in the cold-start files.
    for (const marker of ['schema with key or id', '"secretsmanager"']) {
      assert.ok(everything.includes(marker), `${marker} is bundled`);
      assert.ok(!coldStart.includes(marker), `${marker} is loaded at cold start`);
    }
    // And each lazily loaded chunk offers the names its importer destructures.
    const chunkExports = JSON.parse(
      runModule(
        `const files = ${JSON.stringify(codeFiles(join(bundle.taskRoot, LAMBDA_CHUNK_DIR)).map((file) => pathToFileURL(file).href))};` +
          'const names = []; for (const f of files) names.push(...Object.keys(await import(f)));' +
          'process.stdout.write(JSON.stringify(names));',
      ),
    ) as string[];
    for (const name of ['Ajv', 'Ajv2020', 'SecretsManagerClient', 'GetSecretValueCommand'])
      assert.ok(chunkExports.includes(name), `${name} is exported by a chunk`);
  });

  it('loads no adapter read path, nor the LDAP client, at cold start: each kind loads on its first read', async () => {
    // Act
    const bundle = await bundleHandler({ entry: PLATFORM_HANDLER_ENTRY, outDir: join(scratch, 'adapters') });
    const coldStart = bundle.coldStartFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
    const everything = codeFiles(bundle.taskRoot)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    // Assess: a string only each read path holds is bundled, but not in the cold-start files.
    const readPaths = {
      'ldapts (the paged-results control)': '1.2.840.113556.1.4.319',
      'the SCIM adapter': 'ServiceProviderConfig',
      'the Entra adapter': '@odata.nextLink',
      'the Okta adapter': '/api/v1/users',
      "the provider kernel's rate-limit waits": 'x-rate-limit-reset',
      'the OAuth token request': 'client_credentials',
    };
    for (const [part, marker] of Object.entries(readPaths)) {
      assert.ok(everything.includes(marker), `${part} is bundled`);
      assert.ok(!coldStart.includes(marker), `${part} is loaded at cold start`);
    }
  });
});
