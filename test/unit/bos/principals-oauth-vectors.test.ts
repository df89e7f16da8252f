/**
 * AppTheory's OAuth vectors (`../shared/fixtures/apptheory/oauth/`) against `authenticate()` and the
 * RFC 9728 metadata, with the vector's clock, resource, issuer and scopes as our configuration.
 *
 * Adapted where the vector pins the reference runtime rather than the MCP authorization spec:
 * - the vector's opaque tokens (`valid-token`, …) become real ES256 JWTs carrying the listed claims;
 * - the verifier runs with zero clock skew: the vector's expired token is only 1 s past `exp`, inside the
 *   60 s skew we allow in production (the bad-token table covers the skew itself);
 * - error bodies are our JSON-RPC errors (`-32011`/`-32013`), not `{error: {code: "app.unauthorized"}}`;
 * - a sent-but-refused token adds `error="invalid_token"` to the challenge (RFC 6750 §3.1);
 * - **wrong audience is 401 `invalid_token`, not the vector's 403**: a token issued for another resource is
 *   not valid here (MCP authorization "Token Handling", RFC 8707 §2; RFC 6750 §3.1 `invalid_token`);
 * - a missing scope's 403 carries `error="insufficient_scope"` and the scope (MCP authorization, RFC 6750);
 * - the accepted step checks the principal instead of the reference app's `{ok, subject, scopes}` body.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import {
  authenticate,
  createJwtVerifier,
  protectedResourceMetadata,
  protectedResourceMetadataResponse,
  resourceMetadataPaths,
  resourceMetadataUrl,
} from '../../../lambda/bos/principals/index.js';

const OAUTH_DIR = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'),
  '..',
  'shared',
  'fixtures',
  'apptheory',
  'oauth',
);

interface OAuthSetup {
  clock_unix: number;
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  required_audience: string;
  required_scopes: string[];
  bearer_tokens: {
    token: string;
    subject: string;
    audience: string;
    scopes: string[];
    expires_unix: number;
  }[];
}
interface Step {
  name: string;
  request: { method: string; path: string; headers: Record<string, string[]> };
}
interface Expected {
  status: number;
  headers: Record<string, string[]>;
  body_json: unknown;
}
interface Vector {
  setup: { oauth: OAuthSetup };
  input: { oauth: { steps: Step[] } };
  expect: { oauth: { steps: Expected[] } };
}

const load = (file: string): Vector => JSON.parse(readFileSync(join(OAUTH_DIR, file), 'utf8')) as Vector;

/** Our answer per step name where it differs from the reference runtime (see the header). */
const ADAPTED_STATUS: Record<string, number> = { 'wrong audience': 401 };

describe('AppTheory OAuth vectors', () => {
  it('oauth-bearer-validation: each step gets the spec status, challenge and content type', async (t) => {
    if (!existsSync(OAUTH_DIR)) return t.skip(`fixture folder ${OAUTH_DIR} is absent`);
    const vector = load('oauth-bearer-validation.json');
    const setup = vector.setup.oauth;
    const issuer = setup.authorization_servers[0] ?? '';
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'vector', alg: 'ES256' };
    const verifier = createJwtVerifier({
      issuer,
      audience: setup.required_audience,
      jwks: { keys: [jwk] },
      requiredScope: setup.required_scopes[0] ?? '',
      clock: () => setup.clock_unix * 1000,
      // The vector's expired token is 1 s past `exp`, inside our default 60 s skew: it pins zero skew.
      clockToleranceSeconds: 0,
    });
    const jwts = new Map<string, string>();
    for (const token of setup.bearer_tokens) {
      const jwt = await new SignJWT({ scope: token.scopes.join(' ') })
        .setProtectedHeader({ alg: 'ES256', kid: 'vector' })
        .setIssuer(issuer)
        .setAudience(token.audience)
        .setSubject(token.subject)
        .setIssuedAt(setup.clock_unix - 60)
        .setExpirationTime(token.expires_unix)
        .sign(privateKey);
      jwts.set(token.token, jwt);
    }
    const metadataUrl = resourceMetadataUrl(setup.resource);
    const steps = vector.input.oauth.steps;
    assert.equal(steps.length, vector.expect.oauth.steps.length);
    for (const [index, step] of steps.entries()) {
      const expected = vector.expect.oauth.steps[index] as Expected;
      const sent = step.request.headers['authorization']?.[0]?.replace(/^Bearer /, '');
      const headers = new Headers({ accept: step.request.headers['accept']?.[0] ?? '*/*' });
      if (sent !== undefined) headers.set('authorization', `Bearer ${jwts.get(sent) ?? sent}`);
      const request = new Request(new URL(step.request.path, setup.resource), {
        method: step.request.method,
        headers,
      });
      const outcome = await authenticate(request, verifier, {
        metadataUrl,
        requiredScope: setup.required_scopes[0] ?? '',
      });
      const status = outcome.ok ? 200 : outcome.response.status;
      assert.equal(status, ADAPTED_STATUS[step.name] ?? expected.status, step.name);
      if (outcome.ok) {
        const body = expected.body_json as { subject: string; scopes: string[] };
        assert.deepEqual(outcome.principal, { subject: body.subject, scopes: body.scopes }, step.name);
        continue;
      }
      assert.equal(
        outcome.response.headers.get('content-type'),
        expected.headers['content-type']?.[0],
        step.name,
      );
      const challenge = outcome.response.headers.get('www-authenticate') ?? '';
      assert.ok(challenge.endsWith(`resource_metadata="${metadataUrl}"`), `${step.name}: ${challenge}`);
      for (const value of expected.headers['www-authenticate'] ?? []) {
        assert.ok(challenge.includes(value.replace(/^Bearer /, '')), `${step.name}: ${challenge}`);
      }
      if (status === 403) assert.match(challenge, /^Bearer error="insufficient_scope", scope="mcp:read"/);
      else if (sent !== undefined) assert.match(challenge, /^Bearer error="invalid_token", /);
    }
  });

  it('oauth-protected-resource-metadata: the document and its path match exactly', async (t) => {
    if (!existsSync(OAUTH_DIR)) return t.skip(`fixture folder ${OAUTH_DIR} is absent`);
    const vector = load('oauth-protected-resource-metadata.json');
    const setup = vector.setup.oauth;
    const [step] = vector.input.oauth.steps;
    const [expected] = vector.expect.oauth.steps;
    assert.ok(step !== undefined && expected !== undefined);
    assert.equal(resourceMetadataPaths(setup.resource)[0], step.request.path);
    const response = protectedResourceMetadataResponse(
      protectedResourceMetadata(setup.resource, setup.authorization_servers, setup.scopes_supported),
    );
    assert.equal(response.status, expected.status);
    assert.equal(response.headers.get('content-type'), expected.headers['content-type']?.[0]);
    assert.deepEqual(await response.json(), expected.body_json);
  });
});
