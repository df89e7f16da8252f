/**
 * `lib/instanceof-only-web-streams.ts`: middy's `import { ReadableStream } from 'node:stream/web'` is served by a
 * stand-in that answers `instanceof` exactly as the real class does, so the platform bundle no longer loads
 * web streams when it loads; any other use of the name fails the build.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import {
  assertInstanceofOnly,
  INSTANCEOF_ONLY_SOURCE,
  WebStreamsStandInError,
} from '../../../lib/instanceof-only-web-streams.js';
import { bundleHandler } from '../../../local/bundle.js';
import { PLATFORM_HANDLER_ENTRY } from '../../../local/paths.js';
import { defaultNodePath } from '../../../local/runtime-api/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'bos-mcp-web-streams-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const middySource = readFileSync(createRequire(import.meta.url).resolve('@middy/core'), 'utf8');

/** Runs `source` as an ES module under the runtime's Node.js 22 and returns what it wrote to stdout. */
function runModule(source: string): string {
  return execFileSync(defaultNodePath(), ['--input-type=module', '-e', source], { encoding: 'utf8' });
}

describe('assertInstanceofOnly', () => {
  it('accepts the installed @middy/core, whose only use of ReadableStream is an instanceof test', () => {
    assert.doesNotThrow(() => assertInstanceofOnly(middySource, '@middy/core'));
  });

  it('refuses an importer that constructs the class', () => {
    const source = `${middySource}\nexport const made = () => new ReadableStream();`;
    assert.throws(() => assertInstanceofOnly(source, 'x.js'), WebStreamsStandInError);
  });

  it('refuses an importer that imports another name from stream/web', () => {
    const source =
      "import { ReadableStream, TextDecoderStream } from 'node:stream/web';\nx instanceof ReadableStream;";
    assert.throws(() => assertInstanceofOnly(source, 'x.js'), WebStreamsStandInError);
  });

  it('refuses an importer that passes the class on', () => {
    const source =
      "import { ReadableStream } from 'stream/web';\nx instanceof ReadableStream;\nuse(ReadableStream);";
    assert.throws(() => assertInstanceofOnly(source, 'x.js'), WebStreamsStandInError);
  });
});

describe('the stand-in module', () => {
  it('answers instanceof exactly as the real ReadableStream, loading web streams only when asked', () => {
    const url = `data:text/javascript,${encodeURIComponent(INSTANCEOF_ONLY_SOURCE)}`;
    const output = runModule(
      `const { ReadableStream } = await import(${JSON.stringify(url)});` +
        "const loaded = () => process.moduleLoadList.includes('NativeModule stream/web');" +
        'const before = loaded();' +
        "const { Readable } = process.getBuiltinModule('node:stream');" +
        "const real = process.getBuiltinModule('node:stream/web').ReadableStream;" +
        'const values = [new real(), Readable.from([]), {}, null, "s"];' +
        'process.stdout.write(JSON.stringify({ before, same: values.map((v) => (v instanceof ReadableStream) === (v instanceof real)), web: values[0] instanceof ReadableStream }));',
    );
    assert.deepEqual(JSON.parse(output), {
      before: false,
      same: [true, true, true, true, true],
      web: true,
    });
  });
});

describe('the platform bundle', () => {
  it('does not load stream/web when Node.js loads it, and still has the stand-in', async () => {
    const bundle = await bundleHandler({ entry: PLATFORM_HANDLER_ENTRY, outDir: join(scratch, 'platform') });
    const coldStart = bundle.coldStartFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
    assert.match(coldStart, /getBuiltinModule\("node:stream\/web"\)/);
    // The entry calls awslambda.streamifyResponse while it loads (through middy); the runtime's global is
    // stubbed, nothing else is, and no invocation runs.
    const output = runModule(
      'globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };' +
        `const entry = await import(${JSON.stringify(pathToFileURL(bundle.file).href)});` +
        "process.stdout.write(JSON.stringify({ handler: typeof entry.handler, webStreams: process.moduleLoadList.includes('NativeModule stream/web') }));",
    );
    assert.deepEqual(JSON.parse(output), { handler: 'function', webStreams: false });
  });
});
