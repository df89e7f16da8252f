/** The bounded fetch (`jwks-fetch.ts`) jose's `createRemoteJWKSet` uses for the issuer's key set. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fetchJwks, JwksFetchError, MAX_JWKS_BYTES } from '../../../lambda/bos/principals/jwks-fetch.js';

const KEYS = { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1' }] };
let base = '';
let seenHeaders: Record<string, string | string[] | undefined> = {};

const server = createServer((req, res) => {
  seenHeaders = req.headers;
  if (req.url === '/keys')
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(KEYS));
  else if (req.url === '/moved') res.writeHead(302, { location: '/keys' }).end();
  else if (req.url === '/huge') res.writeHead(200).end('x'.repeat(MAX_JWKS_BYTES + 1));
  else if (req.url === '/huge-chunked') {
    // No content-length: the bound must hold while the body streams in.
    res.writeHead(200);
    res.write('x'.repeat(MAX_JWKS_BYTES));
    res.end('x');
  } else if (req.url === '/garbage') res.writeHead(200).end('{not json');
  // '/hang' never answers.
});

before(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

describe('fetchJwks', () => {
  it('returns the status and the parsed key set, sending the headers it was given', async () => {
    const response = await fetchJwks(`${base}/keys`, {
      headers: new Headers({ accept: 'application/json' }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), KEYS);
    assert.equal(seenHeaders['accept'], 'application/json');
  });

  it('does not follow a redirect (jose then refuses the non-200)', async () => {
    assert.equal((await fetchJwks(`${base}/moved`, { redirect: 'manual' })).status, 302);
  });

  it('refuses a body larger than the bound', async () => {
    await assert.rejects(fetchJwks(`${base}/huge`, {}), JwksFetchError);
    await assert.rejects(fetchJwks(`${base}/huge-chunked`, {}), JwksFetchError);
  });

  it('rejects json() for a body that is not JSON', async () => {
    await assert.rejects((await fetchJwks(`${base}/garbage`, {})).json());
  });

  it("rejects with the signal's TimeoutError when the issuer hangs", async () => {
    await assert.rejects(fetchJwks(`${base}/hang`, { signal: AbortSignal.timeout(100) }), {
      name: 'TimeoutError',
    });
  });
});
