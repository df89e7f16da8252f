/**
 * The bad-token table through the whole local stack (bundled platform entry under AWS's runtime client,
 * REST v1 front, DynamoDB Local): the bad-token table with exact status, challenge and body; the RFC 9728
 * metadata; a session id replayed by another principal gets 404 like an unknown one; and no token appears in
 * any line the function logged. The function trusts an issuer whose JWKS this test serves on 127.0.0.1, so
 * every row is a real token signed (or not) by real keys.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStack } from '../../local/stack.js';
import type { LocalStack } from '../../local/stack.js';
import {
  assertNoToken,
  assertRefusal,
  badTokenRows,
  createTokenKeys,
  tokenFactory,
} from '../helpers/bad-token-table.js';
import { freePort } from '../helpers/free-port.js';
import { startJwksServer } from '../helpers/jwks-server.js';
import type { JwksServer } from '../helpers/jwks-server.js';
import { javaSuite } from '../helpers/java.js';

const ISSUER = 'https://issuer.example.test';
const PATH = '/mcp/apps/bos/platform';
const keys = await createTokenKeys();

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'auth-it', version: '1' } },
});

describe('authentication through the local stack', javaSuite(300_000), () => {
  let stack: LocalStack;
  let jwks: JwksServer;
  let endpoint = '';
  let origin = '';
  const logLines: string[] = [];
  const tokensSent: string[] = [];

  const send = (body: unknown, authorization?: string, extra: Record<string, string> = {}) => {
    const token = authorization?.replace(/^Bearer /, '');
    if (token !== undefined) tokensSent.push(token);
    return fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(authorization === undefined ? {} : { authorization }),
        ...extra,
      },
      body: JSON.stringify(body),
    });
  };

  before(async () => {
    jwks = await startJwksServer([keys.es.jwk, keys.rs.jwk]);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    endpoint = `${origin}${PATH}`;
    stack = await startStack({
      port,
      bundleDir: '.local/test-bundles/auth-bad-tokens',
      poolSize: 2,
      timeoutSeconds: 60,
      auth: false,
      env: { AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: endpoint, AUTH_JWKS_URL: jwks.url.toString() },
      onFunctionLog: ({ line }) => logLines.push(line),
    });
    assert.equal(stack.url, endpoint);
  });

  after(async () => {
    await stack?.close();
    await jwks?.close();
  });

  it('answers every bad-token row with its exact status, WWW-Authenticate and JSON-RPC body', async () => {
    const metadataUrl = `${origin}/.well-known/oauth-protected-resource${PATH}`;
    const rows = badTokenRows(keys, { issuer: ISSUER, audience: endpoint, metadataUrl });
    assert.equal(rows.length, 11);
    for (const row of rows) {
      const authorization = await row.authorization();
      await assertRefusal(
        await send(initialize(1), authorization),
        row,
        authorization?.replace(/^Bearer /, ''),
      );
    }
  });

  it('serves the RFC 9728 metadata at the path-scoped and root well-known URLs without a token', async () => {
    for (const path of [
      `/.well-known/oauth-protected-resource${PATH}`,
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await fetch(`${origin}${path}`);
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), {
        resource: endpoint,
        authorization_servers: [ISSUER],
        scopes_supported: ['bos.read'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('answers a session id replayed by another principal with 404, exactly like an unknown session', async () => {
    const { claims, sign } = tokenFactory(ISSUER, endpoint);
    const devUser = `Bearer ${await sign(keys.es.privateKey, 'ES256', 'es-1', claims({ sub: 'dev-user' }))}`;
    const outsider = `Bearer ${await sign(keys.es.privateKey, 'ES256', 'es-1', claims({ sub: 'outsider' }))}`;
    const init = await send(initialize(1), devUser);
    assert.equal(init.status, 200);
    const sessionId = init.headers.get('mcp-session-id');
    assert.ok(sessionId !== null);
    await init.text();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const session = (id: string) => ({ 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });

    const own = await send(list, devUser, session(sessionId));
    const replayed = await send(list, outsider, session(sessionId));
    const unknown = await send(list, outsider, session('00000000-unknown-session'));

    assert.equal(own.status, 200);
    await own.text();
    assert.equal(replayed.status, 404);
    assert.equal(unknown.status, 404);
    assert.deepEqual(await replayed.json(), await unknown.json());
  });

  it('never wrote a token, or any segment of one, into a function log line', () => {
    assert.ok(tokensSent.length >= 10);
    assert.ok(
      logLines.some((line) => line.includes('bos.auth.refused')),
      'refusals are logged',
    );
    for (const line of logLines) for (const token of tokensSent) assertNoToken(line, token);
  });
});
