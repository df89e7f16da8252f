/**
 * The streaming prelude as API Gateway reads it: JSON metadata, 8 NUL bytes, then the payload — however the
 * bytes are split into chunks.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { PreludeError, parsePreludeMetadata, readPrelude } from '../../../local/rest-front/index.js';
import { PLATFORM_ROUTES, matchRoute } from '../../../local/rest-front/index.js';

const NUL8 = Buffer.alloc(8);

/** A stream fed with `chunks` one by one, as the runtime's `/response` body would arrive. */
function streamOf(chunks: Buffer[], end = true): PassThrough {
  const stream = new PassThrough();
  for (const chunk of chunks) stream.write(chunk);
  if (end) stream.end();
  return stream;
}

async function rest(stream: PassThrough): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

describe('readPrelude', () => {
  it('returns the metadata and leaves the payload, even when the delimiter is split across chunks', async () => {
    const metadata = Buffer.from('{"statusCode":201,"headers":{"X-A":"1"}}');
    const stream = streamOf([
      metadata,
      NUL8.subarray(0, 3),
      NUL8.subarray(3),
      Buffer.from('pay'),
      Buffer.from('load'),
    ]);

    const prelude = await readPrelude(stream);

    assert.equal(prelude.statusCode, 201);
    assert.deepEqual(prelude.headers, [['X-A', '1']]);
    assert.equal(await rest(stream), 'payload');
  });

  it('keeps payload bytes that arrived in the same chunk as the delimiter', async () => {
    const stream = streamOf([Buffer.concat([Buffer.from('{"statusCode":200}'), NUL8, Buffer.from('first')])]);

    await readPrelude(stream);

    assert.equal(await rest(stream), 'first');
  });

  it('rejects a stream that ends before the delimiter', async () => {
    await assert.rejects(readPrelude(streamOf([Buffer.from('{"statusCode":200}')])), (error: unknown) => {
      assert.ok(error instanceof PreludeError);
      assert.equal(error.code, 'no_delimiter');
      return true;
    });
  });

  it('rejects metadata that grows past the limit without a delimiter', async () => {
    const stream = streamOf([Buffer.alloc(2048, 0x61)], false);

    await assert.rejects(readPrelude(stream, 1024), { code: 'no_delimiter' });
  });

  it('rejects a stream that fails before the delimiter', async () => {
    const stream = streamOf([Buffer.from('{"statusCode"')], false);
    const reading = readPrelude(stream);
    stream.destroy(new Error('runtime died'));

    await assert.rejects(reading, { code: 'stream_failed' });
  });
});

describe('parsePreludeMetadata', () => {
  it('merges headers, multi-value headers and cookies in order', () => {
    const prelude = parsePreludeMetadata(
      JSON.stringify({
        statusCode: 200,
        headers: { 'Content-Type': 'text/event-stream', 'X-Count': 3 },
        multiValueHeaders: { Vary: ['Origin', 'Accept'] },
        cookies: ['a=1', 'b=2'],
      }),
    );

    assert.deepEqual(prelude.headers, [
      ['Content-Type', 'text/event-stream'],
      ['X-Count', '3'],
      ['Vary', 'Origin'],
      ['Vary', 'Accept'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ]);
  });

  it('rejects metadata that is not an object with an HTTP status', () => {
    for (const text of [
      '[]',
      'not json',
      '{"statusCode":"200"}',
      '{"statusCode":99}',
      '{"headers":{"a":{}}}',
    ]) {
      assert.throws(() => parsePreludeMetadata(text), PreludeError, text);
    }
  });
});

describe('matchRoute', () => {
  it('sends the deployed resources and methods to the function, ignoring one trailing slash', () => {
    assert.equal(matchRoute(PLATFORM_ROUTES, 'POST', '/mcp/apps/bos/platform').kind, 'function');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'DELETE', '/mcp/apps/bos/platform/').kind, 'function');
    assert.equal(
      matchRoute(PLATFORM_ROUTES, 'GET', '/.well-known/oauth-protected-resource/mcp/apps/bos/platform').kind,
      'function',
    );
    assert.equal(
      matchRoute(PLATFORM_ROUTES, 'GET', '/.well-known/oauth-protected-resource').kind,
      'function',
    );
  });

  it('leaves other paths and methods to API Gateway, and OPTIONS to its CORS preflight', () => {
    assert.equal(matchRoute(PLATFORM_ROUTES, 'PUT', '/mcp/apps/bos/platform').kind, 'none');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'POST', '/.well-known/oauth-protected-resource').kind, 'none');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'GET', '/MCP/apps/bos/platform').kind, 'none');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'OPTIONS', '/mcp/apps/bos/platform').kind, 'preflight');
  });

  it('sends the console page and each of its files to the function, and nothing else under it', () => {
    assert.equal(matchRoute(PLATFORM_ROUTES, 'GET', '/console').kind, 'function');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'GET', '/console/').kind, 'function');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'GET', '/console/app.js').kind, 'function');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'GET', '/console/icon.svg').kind, 'function');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'GET', '/console/other.js').kind, 'none');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'GET', '/console/a/app.js').kind, 'none');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'POST', '/console/app.js').kind, 'none');
    assert.equal(matchRoute(PLATFORM_ROUTES, 'OPTIONS', '/console').kind, 'none');
  });
});
