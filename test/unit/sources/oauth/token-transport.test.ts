/**
 * The token request goes through the provider kernel's HTTP path: its body is bounded, a redirect is not
 * followed, and a refused connection keeps its system code.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fetchTokenTransport } from '../../../../lambda/sources/oauth/index.js';
import {
  TokenBodyTooLargeError,
  TokenTransportError,
} from '../../../../lambda/sources/oauth/token-transport.js';

const server = createServer((request, response) => {
  if (request.url === '/big') {
    // No Content-Length: the limit must hold while the body streams.
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write(`{"access_token":"${'a'.repeat(600)}`);
    response.end('"}');
  } else if (request.url === '/moved') {
    response.writeHead(302, { location: '/token' }).end();
  } else {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => response.end(`\ufeff{"method":"${request.method}","body":"${body}"}`));
  }
});
let base = '';

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const exchange = (path: string, maxBodyBytes = 512) => ({
  url: new URL(path, base),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
  signal: new AbortController().signal,
  maxBodyBytes,
});

describe('fetchTokenTransport', () => {
  it('POSTs the form and answers the status and the body text, its byte order mark dropped', async () => {
    // Act
    const response = await fetchTokenTransport(exchange('/token'));
    // Assess
    assert.equal(response.status, 200);
    assert.equal(response.body, '{"method":"POST","body":"grant_type=client_credentials"}');
  });

  it('refuses a body over the limit while it streams', async () => {
    await assert.rejects(fetchTokenTransport(exchange('/big')), TokenBodyTooLargeError);
  });

  it('answers a redirect as it is, without following it', async () => {
    assert.equal((await fetchTokenTransport(exchange('/moved'))).status, 302);
  });

  it('keeps the system code of a refused connection, and no message of the server', async () => {
    // Prepare: a port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    // Act / Assess
    await assert.rejects(
      fetchTokenTransport({ ...exchange('/token'), url: new URL(`http://127.0.0.1:${port}/token`) }),
      (error: unknown) => error instanceof TokenTransportError && error.code === 'ECONNREFUSED',
    );
  });
});
