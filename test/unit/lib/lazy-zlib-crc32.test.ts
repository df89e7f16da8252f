/**
 * `lib/lazy-zlib-crc32.ts`: the AWS SDK's `import * as zlib from "node:zlib"` (read only for `crc32`) is served
 * by a stand-in that computes the same CRC32 through the real `zlib` on first use, so the platform bundle no
 * longer loads `zlib` when it loads; any other use of the module fails the build.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import {
  assertCrc32Only,
  CRC32_ONLY_IMPORTERS,
  CRC32_ONLY_SOURCE,
  ZlibStandInError,
} from '../../../lib/lazy-zlib-crc32.js';
import { bundleHandler } from '../../../local/bundle.js';
import { PLATFORM_HANDLER_ENTRY, REPO_ROOT } from '../../../local/paths.js';
import { defaultNodePath } from '../../../local/runtime-api/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'bos-mcp-zlib-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// The package's `exports` map hides the file from `require.resolve`; it is read where esbuild finds it.
const importerSource = readFileSync(join(REPO_ROOT, CRC32_ONLY_IMPORTERS[0]!), 'utf8');

/** Runs `source` as an ES module under `node` (default: the runtime's Node.js 22), returning its stdout. */
function runModule(source: string, node = defaultNodePath()): string {
  return execFileSync(node, ['--input-type=module', '-e', source], { encoding: 'utf8' });
}

describe('assertCrc32Only', () => {
  it('accepts the installed @smithy/core Crc32Node, which reads nothing of zlib but crc32', () => {
    assert.doesNotThrow(() => assertCrc32Only(importerSource, 'Crc32Node.js'));
  });

  it('refuses an importer that reads another name from the namespace', () => {
    const source = `${importerSource}\nexport const gzip = (b) => zlib.gzipSync(b);`;
    assert.throws(() => assertCrc32Only(source, 'x.js'), ZlibStandInError);
  });

  it('refuses an importer that passes the namespace on', () => {
    const source = `${importerSource}\nuse(zlib);`;
    assert.throws(() => assertCrc32Only(source, 'x.js'), ZlibStandInError);
  });

  it('refuses named imports and a second import of zlib', () => {
    assert.throws(
      () => assertCrc32Only("import { crc32 } from 'node:zlib';\ncrc32('x');", 'x.js'),
      ZlibStandInError,
    );
    const twice = `${importerSource}\nimport * as other from "zlib";`;
    assert.throws(() => assertCrc32Only(twice, 'x.js'), ZlibStandInError);
  });

  it('is not fooled by the name inside a string or read as a property of another object', () => {
    const source = `${importerSource}\nconst label = "zlib.deflateSync"; other.zlib.gzipSync();`;
    assert.doesNotThrow(() => assertCrc32Only(source, 'x.js'));
  });
});

describe('the stand-in module', () => {
  // Compares with the real module on the running Node.js: whether crc32 exists, and its answers.
  const probe = (standIn: string): string =>
    `const { crc32 } = await import(${JSON.stringify(`data:text/javascript,${encodeURIComponent(standIn)}`)});` +
    "const loaded = () => process.moduleLoadList.includes('NativeModule zlib');" +
    'const before = loaded();' +
    "const real = process.getBuiltinModule('node:zlib');" +
    "const inputs = [['hello'], [Buffer.from('hello')], [new Uint8Array([1, 2, 3]), 12345], [''], ['world', 0]];" +
    'const same = typeof real.crc32 === typeof crc32 && (typeof crc32 !== "function" || inputs.every((a) => crc32(...a) === real.crc32(...a)));' +
    'process.stdout.write(JSON.stringify({ before, same, native: typeof crc32 }));';

  it('gives the real zlib.crc32 results under the runtime Node.js 22, loading zlib only when called', () => {
    assert.deepEqual(JSON.parse(runModule(probe(CRC32_ONLY_SOURCE))), {
      before: false,
      same: true,
      native: 'function',
    });
  });

  it('agrees with the real module about crc32 under the Node.js running the build too', () => {
    const result = JSON.parse(runModule(probe(CRC32_ONLY_SOURCE), process.execPath)) as { same: boolean };
    assert.equal(result.same, true);
  });
});

describe('the platform bundle', () => {
  it('does not load zlib when Node.js loads it, and still has the stand-in', async () => {
    const bundle = await bundleHandler({ entry: PLATFORM_HANDLER_ENTRY, outDir: join(scratch, 'platform') });
    const coldStart = bundle.coldStartFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
    assert.match(coldStart, /getBuiltinModule\("node:zlib"\)\.crc32/);
    assert.doesNotMatch(coldStart, /from\s*"(?:node:)?zlib"/);
    // The entry calls awslambda.streamifyResponse while it loads (through middy); the runtime's global is
    // stubbed, nothing else is, and no invocation runs.
    const output = runModule(
      'globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };' +
        `const entry = await import(${JSON.stringify(pathToFileURL(bundle.file).href)});` +
        "process.stdout.write(JSON.stringify({ handler: typeof entry.handler, zlib: process.moduleLoadList.includes('NativeModule zlib') }));",
    );
    assert.deepEqual(JSON.parse(output), { handler: 'function', zlib: false });
  });
});
