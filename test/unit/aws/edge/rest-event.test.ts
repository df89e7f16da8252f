import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeBase64Strict,
  parseRestEvent,
  RestEventError,
  restEventToRequest,
} from '../../../../lambda/aws/index.js';
import { restEvent } from '../../../helpers/rest-events.js';

describe('REST v1 proxy event to Request', () => {
  it('multiValueHeaders win over headers, and header names are case-insensitive', async () => {
    // Prepare
    const event = restEvent({
      headers: { 'X-Trace': 'single', Accept: 'application/json' },
      multiValueHeaders: { 'x-trace': ['one', 'two'] },
    });
    // Act
    const { request, parts } = restEventToRequest(event);
    // Assess
    assert.deepEqual(parts.headers.get('x-trace'), ['one', 'two']);
    assert.equal(request.headers.get('X-TRACE'), 'one, two');
    assert.equal(request.headers.get('accept'), 'application/json');
    await request.body?.cancel();
  });

  it('keeps header and query names like __proto__ and constructor as plain data', () => {
    // Prepare: JSON.parse creates real own "__proto__" keys, as API Gateway's JSON would.
    const event = restEvent({
      headers: JSON.parse('{"__proto__": "p", "constructor": "c"}') as Record<string, string>,
      multiValueQueryStringParameters: JSON.parse('{"__proto__": ["q"], "toString": ["t"]}') as Record<
        string,
        string[]
      >,
    });
    // Act
    const { request, parts } = restEventToRequest(event);
    // Assess
    assert.deepEqual(parts.headers.get('__proto__'), ['p']);
    assert.deepEqual(parts.headers.get('constructor'), ['c']);
    assert.equal(request.headers.get('__proto__'), 'p');
    assert.equal(new URL(request.url).searchParams.get('__proto__'), 'q');
    assert.equal(new URL(request.url).searchParams.get('toString'), 't');
    assert.equal(Object.getPrototypeOf(parts.pathParameters), null);
  });

  it('builds the query string from multiValueQueryStringParameters, re-encoding decoded values', () => {
    // Prepare
    const event = restEvent({
      queryStringParameters: { q: 'last' },
      multiValueQueryStringParameters: { q: ['a b', 'c&d'] },
    });
    // Act
    const { request } = restEventToRequest(event);
    // Assess
    assert.deepEqual(new URL(request.url).searchParams.getAll('q'), ['a b', 'c&d']);
  });

  it('decodes a base64 body to the exact bytes', async () => {
    // Prepare
    const event = restEvent({
      body: Buffer.from('{"jsonrpc":"2.0"}').toString('base64'),
      isBase64Encoded: true,
    });
    // Act
    const { request } = restEventToRequest(event);
    // Assess
    assert.equal(await request.text(), '{"jsonrpc":"2.0"}');
  });

  it('decodes a multi-megabyte base64 body in linear time without exhausting the stack', () => {
    // Prepare: 4 MiB of binary, the size API Gateway base64-encodes for an octet-stream upload.
    const bytes = new Uint8Array(4 * 1024 * 1024).map((_, index) => index % 251);
    const text = Buffer.from(bytes).toString('base64');
    // Act
    const decoded = decodeBase64Strict(text);
    // Assess
    assert.equal(decoded.byteLength, bytes.byteLength);
    assert.equal(decoded[4_000_000], bytes[4_000_000]);
  });

  it('rejects a multi-megabyte base64 body with one bad character near its end', () => {
    const text = `${Buffer.alloc(3 * 1024 * 1024, 7)
      .toString('base64')
      .slice(0, -4)}AA*A`;
    assert.throws(
      () => decodeBase64Strict(text),
      (error) => error instanceof RestEventError && error.code === 'invalid_base64',
    );
  });

  for (const bad of ['AAE', 'AA=E', 'AAF=', 'A*==', 'AAEC\n', 'AAEC===', 'AB-_', ' AAEC', '====', 'A===']) {
    it(`rejects the invalid base64 body ${JSON.stringify(bad)} with a typed error`, () => {
      // Act + Assess
      assert.throws(
        () => parseRestEvent(restEvent({ body: bad, isBase64Encoded: true })),
        (error) => error instanceof RestEventError && error.code === 'invalid_base64',
      );
    });
  }

  it('accepts canonical base64 of every padding length', () => {
    for (const bytes of [[], [0], [0, 1], [0, 1, 2], [255, 254, 253, 252]]) {
      const text = Buffer.from(bytes).toString('base64');
      assert.deepEqual([...decodeBase64Strict(text)], bytes);
    }
  });

  it('removes the stage prefix when the path carries it', () => {
    // Prepare: no event.path, so the stage-prefixed requestContext.path is used.
    const event = restEvent({ path: undefined as unknown as string });
    // Act
    const parts = parseRestEvent(event);
    // Assess
    assert.equal(parts.path, '/mcp/apps/bos/platform');
  });

  it('keeps a path whose first segment only looks like the stage but matches the resource', () => {
    // Prepare
    const event = restEvent({
      path: '/prod/items',
      resource: '/prod/items',
      requestContext: { ...restEvent().requestContext, stage: 'prod' },
    });
    // Act + Assess
    assert.equal(parseRestEvent(event).path, '/prod/items');
  });

  it('canonicalises the trailing slash on MCP routes only', () => {
    const pathOf = (path: string, resource?: string) =>
      parseRestEvent(restEvent({ path, ...(resource === undefined ? {} : { resource }) })).path;
    assert.equal(pathOf('/mcp/apps/bos/platform/', '/mcp/apps/bos/platform'), '/mcp/apps/bos/platform');
    assert.equal(pathOf('/mcp/', '/mcp'), '/mcp');
    assert.equal(
      pathOf('/.well-known/oauth-protected-resource/', '/.well-known/oauth-protected-resource'),
      '/.well-known/oauth-protected-resource',
    );
    assert.equal(pathOf('/files/a/', '/files/{path+}'), '/files/a/');
    assert.equal(pathOf('/mcp/extra/', '/mcp/{proxy+}'), '/mcp/extra/');
    assert.equal(pathOf('/other/', '/other'), '/other/');
  });

  it('takes the source IP only from requestContext.identity.sourceIp', () => {
    // Prepare
    const event = restEvent({
      headers: { 'X-Forwarded-For': '203.0.113.1', Forwarded: 'for=203.0.113.2' },
      requestContext: { ...restEvent().requestContext, identity: { sourceIp: '198.51.100.99' } } as never,
    });
    const withoutIdentity = restEvent({
      headers: { 'X-Forwarded-For': '203.0.113.1' },
      requestContext: { requestId: 'r' } as never,
    });
    // Act + Assess
    assert.equal(parseRestEvent(event).sourceIp, '198.51.100.99');
    assert.equal(parseRestEvent(withoutIdentity).sourceIp, undefined);
  });

  it('uses the configured origin, not the Host header, and never lets the path change the host', () => {
    // Prepare
    const event = restEvent({
      path: '//evil.example/x',
      resource: undefined as unknown as string,
      headers: { Host: 'spoofed.example' },
    });
    // Act
    const { request } = restEventToRequest(event, { origin: 'https://api.example.com/prod/mcp' });
    // Assess
    const url = new URL(request.url);
    assert.equal(url.host, 'api.example.com');
    assert.equal(url.pathname, '//evil.example/x');
  });

  it('rejects header values fetch cannot carry with a typed error', () => {
    // Prepare
    const event = restEvent({ headers: { 'x-bad': 'line\nbreak' } });
    // Act + Assess
    assert.throws(
      () => restEventToRequest(event),
      (error) => error instanceof RestEventError && error.code === 'invalid_header',
    );
  });

  it('ignores a body on GET, which fetch forbids, instead of failing', () => {
    // Prepare
    const event = restEvent({ httpMethod: 'GET', body: 'ignored' });
    // Act
    const { request } = restEventToRequest(event);
    // Assess
    assert.equal(request.method, 'GET');
    assert.equal(request.body, null);
  });

  it('passes the invocation signal on as request.signal', () => {
    // Prepare
    const controller = new AbortController();
    // Act
    const { request } = restEventToRequest(restEvent(), { signal: controller.signal });
    controller.abort(new Error('client went away'));
    // Assess
    assert.equal(request.signal.aborted, true);
  });
});
