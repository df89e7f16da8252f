/**
 * The fetch the composition root gives the token verifier for the issuer's key set: the provider kernel's
 * bounded-body exchange behind jose's `customFetch`.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createJwtVerifier } from '../../../lambda/bos/index.js';
import { boundedKeySetFetch, MAX_JWKS_BYTES } from '../../../lambda/handlers/key-set-fetch.js';
import { createTokenKeys, tokenFactory } from '../../helpers/bad-token-table.js';
import type { TokenKeys } from '../../helpers/bad-token-table.js';

const KEYS = { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1' }] };
const ISSUER = 'https://issuer.example.test';
const AUDIENCE = 'https://bos.example.test/mcp/apps/bos/platform';
const fetchKeySet = boundedKeySetFetch();
let base = '';
let seenHeaders: Record<string, string | string[] | undefined> = {};
let keys: TokenKeys;

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
  } else if (req.url === '/padded-keys') {
    // A valid key set, padded past the bound: only the bound can refuse it.
    const body = JSON.stringify({ keys: [keys.es.jwk], padding: 'x'.repeat(MAX_JWKS_BYTES) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  } else if (req.url === '/garbage') res.writeHead(200).end('{not json');
  // '/hang' never answers.
});

before(async () => {
  keys = await createTokenKeys();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

describe('boundedKeySetFetch', () => {
  it('returns the status and the parsed key set, sending the headers it was given', async () => {
    const response = await fetchKeySet(`${base}/keys`, {
      headers: new Headers({ accept: 'application/json' }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), KEYS);
    assert.equal(seenHeaders['accept'], 'application/json');
  });

  it('does not follow a redirect (jose then refuses the non-200)', async () => {
    assert.equal((await fetchKeySet(`${base}/moved`, { redirect: 'manual' })).status, 302);
  });

  it('refuses a body larger than the bound, declared or streamed', async () => {
    await assert.rejects(fetchKeySet(`${base}/huge`, {}), { reason: 'body_too_large' });
    await assert.rejects(fetchKeySet(`${base}/huge-chunked`, {}), { reason: 'body_too_large' });
  });

  it('rejects json() for a body that is not JSON', async () => {
    await assert.rejects((await fetchKeySet(`${base}/garbage`, {})).json());
  });

  it("rejects with the signal's TimeoutError when the issuer hangs", async () => {
    await assert.rejects(fetchKeySet(`${base}/hang`, { signal: AbortSignal.timeout(100) }), {
      name: 'TimeoutError',
    });
  });
});

describe('a verifier given the bounded fetch', () => {
  const { claims, sign } = tokenFactory(ISSUER, AUDIENCE);
  const verifierOf = (path: string, fetch: typeof fetchKeySet) =>
    createJwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: new URL(path, base), fetchKeySet: fetch });

  it('answers verifier_unavailable (503) for a key set over the bound, which the unbounded fetch would take', async () => {
    // Prepare
    const token = await sign(keys.es.privateKey, 'ES256', 'es-1', claims());
    // Act / Assess: the platform's fetch reads the padded key set and the token verifies...
    assert.equal((await verifierOf('/padded-keys', fetch).verify(token)).subject, claims().sub);
    // ...the bounded one refuses it as an outage of the issuer, not the caller's fault.
    await assert.rejects(verifierOf('/padded-keys', fetchKeySet).verify(token), {
      name: 'AuthError',
      code: 'verifier_unavailable',
    });
  });
});
