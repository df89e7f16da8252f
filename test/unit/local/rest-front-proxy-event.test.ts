/**
 * The local REST front's proxy event: request-controlled names (query parameters, headers) stay plain data
 * whatever they are called, and the body reaches the function byte for byte.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { buildProxyEvent } from '../../../local/rest-front/proxy-event.js';
import { parseRestEvent } from '../../../lambda/aws/index.js';

const prototypeNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

/** The fields of an `IncomingMessage` the event builder reads, from a raw header list. */
function incoming(url: string, rawHeaders: string[], method = 'POST'): IncomingMessage {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    headers[rawHeaders[i]!.toLowerCase()] = rawHeaders[i + 1]!;
  return {
    url,
    method,
    httpVersion: '1.1',
    rawHeaders,
    headers,
    socket: { remoteAddress: '127.0.0.1', localPort: 3000 },
  } as unknown as IncomingMessage;
}

const context = { resource: '/mcp/{proxy+}', stage: 'local', requestId: 'r-1', receivedAt: new Date(0) };

describe('local REST front proxy event', () => {
  it('keeps query parameters named like Object.prototype members as plain data', () => {
    // Prepare
    const query = prototypeNames.map((name, i) => `${name}=${i}&${name}=x${i}`).join('&');
    // Act
    const event = buildProxyEvent(incoming(`/mcp?${query}`, []), Buffer.alloc(0), context);
    // Assess: the event survives the JSON hop to the runtime and reads back with every name as data.
    const sent = JSON.parse(JSON.stringify(event)) as typeof event;
    const parts = parseRestEvent(sent);
    prototypeNames.forEach((name, i) => {
      assert.deepEqual(parts.query.get(name), [String(i), `x${i}`], name);
      assert.equal(Object.hasOwn(sent.queryStringParameters ?? {}, name), true, name);
    });
  });

  it('keeps header names like Object.prototype members as plain data, duplicates merged', () => {
    // Prepare
    const raw = prototypeNames.flatMap((name) => [name, 'a', name.toUpperCase(), 'b']);
    // Act
    const event = buildProxyEvent(incoming('/mcp', raw), Buffer.alloc(0), context);
    // Assess
    const parts = parseRestEvent(JSON.parse(JSON.stringify(event)) as typeof event);
    for (const name of prototypeNames)
      assert.deepEqual(parts.headers.get(name.toLowerCase()), ['a', 'b'], name);
  });

  it('passes a JSON body that is not valid UTF-8 as its exact bytes, base64-encoded', () => {
    // Prepare: a JSON string holding the lone continuation byte 0x80.
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"'),
      Buffer.from([0x80]),
      Buffer.from('"}}'),
    ]);
    // Act
    const event = buildProxyEvent(incoming('/mcp', ['Content-Type', 'application/json']), body, context);
    // Assess: nothing was replaced by U+FFFD on the way.
    const parts = parseRestEvent(event);
    assert.deepEqual(Buffer.from(parts.body ?? new Uint8Array()), body);
  });

  it('keeps the path as sent: no host taken from //, no dot segments folded', () => {
    for (const path of ['//evil.example/mcp/apps/bos/platform', '/x/../mcp/apps/bos/platform']) {
      const event = buildProxyEvent(incoming(`${path}?a=1`, []), Buffer.alloc(0), context);
      assert.equal(event.path, path);
      assert.deepEqual(event.queryStringParameters, Object.assign(Object.create(null) as object, { a: '1' }));
    }
  });

  it('passes a valid UTF-8 JSON body as text', () => {
    const body = Buffer.from('{"name":"Zoë ✓"}');
    const event = buildProxyEvent(incoming('/mcp', ['Content-Type', 'application/json']), body, context);
    assert.equal(event.isBase64Encoded, false);
    assert.equal(event.body, '{"name":"Zoë ✓"}');
  });
});
