/**
 * Requests to the local dev issuer's OAuth endpoints for `dev-auth-*.test.ts`: an issuer with a movable
 * clock, registration, PKCE pairs, authorization and token requests, and assertions on RFC 6749 §5.2
 * error bodies. Everything goes straight to `handle()`, no sockets.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createDevAuth, s256Challenge } from '../../../local/dev-auth/index.js';
import type {
  DevAuth,
  DevAuthOptions,
  RegisteredClient,
  TokenResponse,
} from '../../../local/dev-auth/index.js';
export const ISSUER = 'http://127.0.0.1:9';
export const ENDPOINT = 'http://127.0.0.1:3000/mcp/apps/bos/platform';
export const REDIRECT = 'http://127.0.0.1:7777/callback';
export const STATE = 'state-123';

export interface Issuer {
  auth: DevAuth;
  /** Moves the issuer's clock (code and refresh token expiry). */
  advance(ms: number): void;
}

export async function devIssuer(overrides: Partial<DevAuthOptions> = {}): Promise<Issuer> {
  let now = Date.UTC(2026, 0, 1);
  const auth = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT, clock: () => now, ...overrides });
  return { auth, advance: (ms) => void (now += ms) };
}

export function register(
  auth: DevAuth,
  metadata: unknown,
  contentType = 'application/json',
): Promise<Response> {
  return auth.handle(
    new Request(`${ISSUER}/register`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: typeof metadata === 'string' ? metadata : JSON.stringify(metadata),
    }),
  );
}

export async function registeredClient(
  auth: DevAuth,
  metadata: Record<string, unknown> = {},
): Promise<string> {
  const response = await register(auth, { redirect_uris: [REDIRECT], client_name: 'unit', ...metadata });
  assert.equal(response.status, 201);
  return ((await response.json()) as RegisteredClient).client_id;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
}

/** A valid authorization request, with parameters replaced (or removed with `undefined`). */
export function authorizeRequest(
  clientId: string,
  challenge: string,
  overrides: Record<string, string | undefined> = {},
): Request {
  const url = new URL(`${ISSUER}/authorize`);
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: STATE,
    scope: 'bos.read',
    resource: ENDPOINT,
    ...overrides,
  };
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return new Request(url);
}

/** The query of the redirect a 302 answer points to. */
export function redirectQuery(response: Response): URLSearchParams {
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get('location') ?? assert.fail('no Location'));
  assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
  return location.searchParams;
}

export async function authorizationCode(
  auth: DevAuth,
  clientId: string,
  overrides: Record<string, string | undefined> = {},
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const query = redirectQuery(await auth.handle(authorizeRequest(clientId, challenge, overrides)));
  return { code: query.get('code') ?? assert.fail(`no code: ${query.toString()}`), verifier };
}

export function tokenRequest(
  auth: DevAuth,
  params: Record<string, string>,
  headers: HeadersInit = {},
): Promise<Response> {
  return auth.handle(
    new Request(`${ISSUER}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(params).toString(),
    }),
  );
}

export function exchange(auth: DevAuth, clientId: string, code: string, verifier: string): Promise<Response> {
  return tokenRequest(auth, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    resource: ENDPOINT,
  });
}

export function refresh(auth: DevAuth, clientId: string, refreshToken: string): Promise<Response> {
  return tokenRequest(auth, {
    grant_type: 'refresh_token',
    client_id: clientId,
    refresh_token: refreshToken,
  });
}

export async function assertOAuthError(response: Response, error: string, status = 400): Promise<void> {
  const body = (await response.json()) as { error: string; error_description?: string };
  assert.equal(response.status, status, JSON.stringify(body));
  assert.equal(body.error, error, JSON.stringify(body));
  assert.equal(response.headers.get('cache-control'), 'no-store');
}

export async function tokensOf(response: Response): Promise<TokenResponse> {
  assert.equal(response.status, 200);
  return (await response.json()) as TokenResponse;
}
