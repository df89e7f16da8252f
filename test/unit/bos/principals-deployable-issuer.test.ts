import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertDeployableIssuer, isDevIssuerUrl } from '../../../lambda/bos/principals/index.js';
import { startDevIssuer } from '../../../local/dev-auth/index.js';

describe('deployed configuration and the dev issuer', () => {
  it('recognises the running local dev issuer and its JWKS URL', async () => {
    const dev = await startDevIssuer({ audience: 'http://127.0.0.1:1/mcp/apps/bos/platform' });
    try {
      assert.equal(isDevIssuerUrl(dev.issuer), true);
      assert.throws(() => assertDeployableIssuer({ issuer: dev.issuer, jwksUrl: new URL(dev.jwksUrl) }), {
        name: 'BosConfigError',
        message:
          'AUTH_ISSUER and AUTH_JWKS_URL must name a real https issuer when deployed, not the local dev issuer.',
      });
    } finally {
      await dev.close();
    }
  });

  it('treats loopback hosts, plain http and non-URLs as the dev issuer', () => {
    for (const value of [
      'https://localhost/issuer',
      'https://auth.localhost',
      'https://127.0.0.2:8443',
      'https://[::1]/',
      'http://issuer.example.com',
      'issuer.example.com',
    ]) {
      assert.equal(isDevIssuerUrl(value), true, value);
    }
  });

  it('accepts a real https issuer and names only the offending variable otherwise', () => {
    assert.equal(isDevIssuerUrl('https://login.example.com/tenant'), false);
    assert.doesNotThrow(() =>
      assertDeployableIssuer({
        issuer: 'https://login.example.com/tenant',
        jwksUrl: 'https://login.example.com/tenant/jwks.json',
      }),
    );
    assert.throws(
      () =>
        assertDeployableIssuer({
          issuer: 'https://login.example.com',
          jwksUrl: 'http://127.0.0.1:9000/.well-known/jwks.json',
        }),
      { message: /^AUTH_JWKS_URL must/ },
    );
  });
});
