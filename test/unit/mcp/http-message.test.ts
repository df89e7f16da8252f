/**
 * The runtime's own HTTP messages (lambda/mcp/http/http-message.ts) keep Fetch's rules without loading undici.
 * Fetch's own `Headers`/`Request`/`Response` are the oracle here: tests may load undici, the Lambda path may not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  BufferedRequest,
  HttpHeaders,
  McpResponse,
  normaliseHeaderValue,
  normaliseMethod,
} from '../../../lambda/mcp/index.js';

/** Strings rich in the characters the rules are about: whitespace, CR/LF/NUL, separators, Latin-1, beyond. */
const awkward = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      ' ',
      '\t',
      '\n',
      '\r',
      '\0',
      ':',
      ',',
      ';',
      '"',
      '(',
      'é',
      'ÿ',
      '€',
      '😀',
      'a',
      'Z',
      '-',
      '!',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 8,
});

function webAppend(name: string, value: string): { ok: true; value: string | null } | { ok: false } {
  try {
    const headers = new Headers();
    headers.append(name, value);
    return { ok: true, value: headers.get(name) };
  } catch {
    return { ok: false };
  }
}

function ownAppend(name: string, value: string): { ok: true; value: string | null } | { ok: false } {
  try {
    const headers = new HttpHeaders();
    headers.append(name, value);
    return { ok: true, value: headers.get(name) };
  } catch (error) {
    assert.ok(error instanceof TypeError, 'refusals are TypeErrors, as from Headers');
    return { ok: false };
  }
}

describe('HttpHeaders', () => {
  it('accepts, refuses and normalises names and values exactly as Fetch Headers does', () => {
    fc.assert(
      fc.property(
        fc.oneof(awkward, fc.constantFrom('accept', 'X-Trace', 'a b', '')),
        awkward,
        (name, value) => {
          assert.deepEqual(ownAppend(name, value), webAppend(name, value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('joins repeated fields with ", ", ignores name case and iterates sorted with Set-Cookie lines apart', () => {
    // Prepare
    const init: [string, string][] = [
      ['X-B', ' one '],
      ['set-cookie', 'a=1'],
      ['x-b', 'two'],
      ['Set-Cookie', 'b=2'],
      ['a-first', 'x'],
    ];
    const own = new HttpHeaders(init);
    const web = new Headers(init);
    // Act + Assess
    assert.equal(own.get('x-b'), 'one, two');
    assert.deepEqual([...own], [...(web as unknown as Iterable<[string, string]>)]);
    assert.deepEqual(own.getSetCookie(), web.getSetCookie());
    assert.equal(own.has('X-B'), true);
    assert.equal(own.get('missing'), null);
  });
});

describe('normaliseMethod and normaliseHeaderValue', () => {
  it('accept and normalise methods exactly as new Request does', () => {
    const methods = fc.oneof(
      awkward,
      fc.constantFrom('get', 'Post', 'delete', 'patch', 'CONNECT', 'trace', 'Track', 'PROPFIND', 'M-SEARCH'),
    );
    fc.assert(
      fc.property(methods, (method) => {
        let expected: string | undefined;
        try {
          expected = new Request('http://localhost/', { method }).method;
        } catch {
          expected = undefined;
        }
        let actual: string | undefined;
        try {
          actual = normaliseMethod(method);
        } catch {
          actual = undefined;
        }
        assert.equal(actual, expected, JSON.stringify(method));
      }),
      { numRuns: 1000 },
    );
  });

  it('strips surrounding whitespace but refuses CR, LF or NUL inside a value', () => {
    assert.equal(normaliseHeaderValue('\t value \r\n'), 'value');
    assert.throws(() => normaliseHeaderValue('line\nbreak'), TypeError);
    assert.throws(() => normaliseHeaderValue('nul\0inside'), TypeError);
    assert.throws(() => normaliseHeaderValue('euro €'), TypeError);
  });
});

describe('BufferedRequest', () => {
  it('hands its bytes over once, and as a stream only when body is read', async () => {
    // Prepare
    const bytes = new TextEncoder().encode('{"jsonrpc":"2.0"}');
    const direct = new BufferedRequest('http://localhost/mcp', {
      method: 'post',
      headers: new HttpHeaders(),
      body: bytes,
    });
    const streamed = new BufferedRequest('http://localhost/mcp', {
      method: 'POST',
      headers: new HttpHeaders(),
      body: bytes,
    });
    // Act
    const text = await direct.text();
    const fromStream = await new Response(streamed.body).text();
    // Assess
    assert.equal(direct.method, 'POST');
    assert.equal(text, '{"jsonrpc":"2.0"}');
    assert.equal(fromStream, text);
    await assert.rejects(direct.text(), TypeError);
  });

  it('refuses a body on GET and an invalid method, as new Request does', () => {
    const headers = new HttpHeaders();
    assert.throws(
      () => new BufferedRequest('http://l/', { method: 'GET', headers, body: new Uint8Array(1) }),
      TypeError,
    );
    assert.throws(() => new BufferedRequest('http://l/', { method: 'TRACE', headers }), TypeError);
    assert.equal(new BufferedRequest('http://l/', { method: 'GET', headers }).body, null);
  });
});

describe('McpResponse', () => {
  it('reads like the Fetch Response built from the same parts', async () => {
    for (const body of ['{"ok":true}', '', null, new TextEncoder().encode('bytes ✓')]) {
      // Prepare
      const init = { status: 202, headers: { 'x-request-id': 'r1' } };
      const own = new McpResponse(body, init);
      const web = new Response(body, init);
      // Act + Assess
      assert.equal(own.status, web.status);
      assert.deepEqual([...own.headers], [...(web.headers as unknown as Iterable<[string, string]>)]);
      assert.equal(own.body === null, web.body === null);
      assert.equal(await own.text(), await web.text());
    }
  });

  it('keeps a string body a string for adapters, and never hands it over twice', () => {
    // Prepare
    const response = new McpResponse('{"jsonrpc":"2.0"}', {
      headers: { 'content-type': 'application/json' },
    });
    // Act
    const content = response.takeContent();
    // Assess
    assert.equal(content, '{"jsonrpc":"2.0"}');
    assert.equal(response.bodyUsed, true);
    assert.throws(() => response.takeContent(), TypeError);
  });

  it('hands over the stream once body has been read, so nothing is written twice', async () => {
    // Prepare
    const response = new McpResponse('abc', {});
    const reader = response.body!.getReader();
    // Act
    const first = await reader.read();
    reader.releaseLock();
    const content = response.takeContent();
    // Assess
    assert.equal(new TextDecoder().decode(first.value), 'abc');
    assert.ok(content instanceof ReadableStream);
    assert.equal((await content.getReader().read()).done, true);
  });

  it('refuses a status outside 200–599, as Response does', () => {
    assert.throws(() => new McpResponse(null, { status: 199 }), RangeError);
    assert.throws(() => new McpResponse(null, { status: 600 }), RangeError);
  });
});
