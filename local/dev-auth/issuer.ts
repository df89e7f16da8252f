/**
 * Local development auth: a throwaway signing key made at start, its JWKS, bearer tokens for the demo
 * principals, and a minimal OAuth 2.1 authorization server (RFC 8414 metadata, RFC 7591 registration,
 * authorization code + PKCE, refresh) so spec-following MCP clients can log in against `npm start`.
 * Nothing here is used when deployed: the Lambda refuses a loopback/http issuer there
 * (`lambda/bos/principals/deployable-issuer.ts`) and verifies tokens from the real one.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JSONWebKeySet, JWK } from 'jose';
import { describeError, log } from '../log.js';
import { authorize } from './authorize.js';
import type { IssuerContext } from './context.js';
import { GrantStore } from './grants.js';
import {
  CORS_HEADERS,
  json,
  mediaTypeOf,
  NO_STORE,
  oauthErrorResponse,
  OAuthRequestError,
  readBody,
} from './http.js';
import { authorizationServerMetadata, DEV_AUTH_PATHS } from './metadata.js';
import type { AuthorizationServerMetadata } from './metadata.js';
import { ClientRegistry, registrationResponse } from './registration.js';
import { token } from './token.js';

/** The demo principals tokens are minted for (see the demo directory); `/authorize` approves the first. */
export const DEV_SUBJECTS = ['dev-user', 'outsider'] as const;
export type DevSubject = (typeof DEV_SUBJECTS)[number];

/** Options of {@link createDevAuth}. */
export interface DevAuthOptions {
  /** `iss` of minted tokens; the JWKS must be reachable at `<issuer>/.well-known/jwks.json`. */
  issuer: string;
  /** `aud` of minted tokens: the local MCP endpoint URL (also the only RFC 8707 `resource` accepted). */
  audience: string;
  /** @default 'ES256' */
  algorithm?: 'ES256' | 'RS256';
  /** @default 'bos.read' */
  scope?: string;
  /** Token lifetime in seconds (dev tokens and OAuth access tokens alike). @default 43200 (12 h) */
  ttlSeconds?: number;
  /** Authorization code lifetime in seconds. @default 60 */
  codeTtlSeconds?: number;
  /** Refresh token lifetime in seconds. @default 86400 (24 h) */
  refreshTtlSeconds?: number;
  /** Registered clients kept in memory; the oldest is forgotten beyond this. @default 100 */
  maxClients?: number;
  /** Current time for code and refresh token expiry (tests). @default Date.now */
  clock?: () => number;
}

/** A dev issuer: keys, tokens, and an HTTP handler for its JWKS, metadata and OAuth endpoints. */
export interface DevAuth {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUrl: string;
  readonly jwks: JSONWebKeySet;
  /** The RFC 8414 document served at `<issuer>/.well-known/oauth-authorization-server`. */
  readonly metadata: AuthorizationServerMetadata;
  /** One token per demo subject, minted at creation. */
  readonly tokens: Readonly<Record<DevSubject, string>>;
  /** Mints another token (tests: other subjects or scopes). */
  mint(
    subject: string,
    claims?: { scope?: string; ttlSeconds?: number; audience?: string; orgId?: string },
  ): Promise<string>;
  /**
   * Serves, under the issuer path: `GET /.well-known/jwks.json`, `GET /.well-known/oauth-authorization-server`,
   * `POST /register`, `GET /authorize`, `POST /token` (and CORS preflights). Anything else is 404.
   */
  handle(request: Request): Promise<Response>;
  /** Writes `{"dev-user": "<jwt>", "outsider": "<jwt>"}` (mode 0600). @default path '.local/dev-tokens.json' */
  writeTokensFile(path?: string): Promise<string>;
}

/** Generates a fresh key pair and mints the demo tokens. */
export async function createDevAuth(options: DevAuthOptions): Promise<DevAuth> {
  const algorithm = options.algorithm ?? 'ES256';
  const scope = options.scope ?? 'bos.read';
  const ttl = options.ttlSeconds ?? 12 * 60 * 60;
  const clock = options.clock ?? Date.now;
  const issuer = options.issuer.replace(/\/+$/, '');
  const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
  const kid = `dev-${Date.now().toString(36)}`;
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: algorithm, use: 'sig' };
  const jwks: JSONWebKeySet = { keys: [publicJwk] };
  const metadata = authorizationServerMetadata(issuer, [scope]);

  const mint: DevAuth['mint'] = (subject, claims = {}) =>
    new SignJWT({
      scope: claims.scope ?? scope,
      // The tenant claim the platform reads by default (`AUTH_TENANT_CLAIM`).
      ...(claims.orgId === undefined ? {} : { org_id: claims.orgId }),
    })
      .setProtectedHeader({ alg: algorithm, kid, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(claims.audience ?? options.audience)
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(`${claims.ttlSeconds ?? ttl}s`)
      .sign(privateKey);

  const tokens = {
    'dev-user': await mint('dev-user'),
    outsider: await mint('outsider'),
  };
  const ctx: IssuerContext = {
    issuer,
    audience: options.audience,
    scopes: [scope],
    subjects: DEV_SUBJECTS,
    clients: new ClientRegistry(options.maxClients ?? 100),
    grants: new GrantStore({
      clock,
      codeTtlMs: (options.codeTtlSeconds ?? 60) * 1000,
      refreshTtlMs: (options.refreshTtlSeconds ?? 24 * 60 * 60) * 1000,
      limit: 1_000,
    }),
    mint,
    accessTtlSeconds: ttl,
  };
  const handle = routes(new URL(issuer).pathname.replace(/\/+$/, ''), {
    [DEV_AUTH_PATHS.jwks]: { method: 'GET', cors: true, serve: () => json(jwks, 200, CORS_HEADERS) },
    [DEV_AUTH_PATHS.metadata]: { method: 'GET', cors: true, serve: () => json(metadata, 200, CORS_HEADERS) },
    [DEV_AUTH_PATHS.register]: {
      method: 'POST',
      cors: true,
      serve: async (request) => {
        const client = ctx.clients.register(await readJson(request), ctx.scopes, clock());
        return registrationResponse(client, CORS_HEADERS);
      },
    },
    [DEV_AUTH_PATHS.authorize]: { method: 'GET', cors: false, serve: (request) => authorize(request, ctx) },
    [DEV_AUTH_PATHS.token]: { method: 'POST', cors: true, serve: (request) => token(request, ctx) },
  });

  return {
    issuer,
    audience: options.audience,
    jwksUrl: metadata.jwks_uri,
    jwks,
    metadata,
    tokens,
    mint,
    handle,
    async writeTokensFile(path = '.local/dev-tokens.json') {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
      return path;
    },
  };
}

interface Route {
  method: 'GET' | 'POST';
  /** Whether browsers may call it cross-origin (everything but the `/authorize` navigation). */
  cors: boolean;
  serve(request: Request): Response | Promise<Response>;
}

/** Dispatches on the path under the issuer; OAuth refusals become RFC 6749 §5.2 bodies, anything else a 500. */
function routes(issuerPath: string, table: Record<string, Route>): (request: Request) => Promise<Response> {
  return async (request) => {
    const path = new URL(request.url).pathname;
    const route = path.startsWith(issuerPath) ? table[path.slice(issuerPath.length)] : undefined;
    if (route === undefined) return json({ error: 'not_found' }, 404);
    if (request.method === 'OPTIONS' && route.cors) {
      return new Response(null, { status: 204, headers: CORS_HEADERS });
    }
    if (request.method !== route.method) {
      return json({ error: 'method_not_allowed' }, 405, { allow: route.method });
    }
    try {
      return await route.serve(request);
    } catch (error) {
      if (error instanceof OAuthRequestError) return oauthErrorResponse(error);
      log('error', 'dev issuer request failed', { path, error: describeError(error) });
      return json({ error: 'server_error' }, 500, { ...NO_STORE, ...CORS_HEADERS });
    }
  };
}

/** The registration body: JSON (RFC 7591 §3.1) and nothing else. */
async function readJson(request: Request): Promise<unknown> {
  if (mediaTypeOf(request) !== 'application/json') {
    throw new OAuthRequestError('invalid_client_metadata', 'The body must be application/json.');
  }
  try {
    return JSON.parse(await readBody(request)) as unknown;
  } catch (error) {
    if (error instanceof OAuthRequestError) throw error;
    throw new OAuthRequestError('invalid_client_metadata', 'The body is not valid JSON.', 400, {
      cause: error,
    });
  }
}
