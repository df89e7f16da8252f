/**
 * Local development auth: a throwaway signing key made at start, its JWKS, and bearer tokens for the
 * demo principals. Nothing here is used when deployed; the Lambda verifies tokens from the real issuer
 * (`AUTH_ISSUER`, `AUTH_AUDIENCE`, `AUTH_JWKS_URL`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JSONWebKeySet, JWK } from 'jose';

/** The demo principals tokens are minted for (see the demo directory). */
export const DEV_SUBJECTS = ['dev-user', 'outsider'] as const;
export type DevSubject = (typeof DEV_SUBJECTS)[number];

/** Options of {@link createDevAuth}. */
export interface DevAuthOptions {
  /** `iss` of minted tokens; the JWKS must be reachable at `<issuer>/.well-known/jwks.json`. */
  issuer: string;
  /** `aud` of minted tokens: the local MCP endpoint URL. */
  audience: string;
  /** @default 'ES256' */
  algorithm?: 'ES256' | 'RS256';
  /** @default 'bos.read' */
  scope?: string;
  /** Token lifetime in seconds. @default 43200 (12 h) */
  ttlSeconds?: number;
}

/** A dev issuer: keys, tokens, and an HTTP handler for its JWKS and metadata. */
export interface DevAuth {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUrl: string;
  readonly jwks: JSONWebKeySet;
  /** One token per demo subject, minted at creation. */
  readonly tokens: Readonly<Record<DevSubject, string>>;
  /** Mints another token (tests: other subjects or scopes). */
  mint(subject: string, claims?: { scope?: string; ttlSeconds?: number; audience?: string }): Promise<string>;
  /** Serves `GET /.well-known/jwks.json` and `/.well-known/oauth-authorization-server` under the issuer path. */
  handle(request: Request): Response;
  /** Writes `{"dev-user": "<jwt>", "outsider": "<jwt>"}` (mode 0600). @default path '.local/dev-tokens.json' */
  writeTokensFile(path?: string): Promise<string>;
}

/** Generates a fresh key pair and mints the demo tokens. */
export async function createDevAuth(options: DevAuthOptions): Promise<DevAuth> {
  const algorithm = options.algorithm ?? 'ES256';
  const scope = options.scope ?? 'bos.read';
  const ttl = options.ttlSeconds ?? 12 * 60 * 60;
  const issuer = options.issuer.replace(/\/+$/, '');
  const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
  const kid = `dev-${Date.now().toString(36)}`;
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: algorithm, use: 'sig' };
  const jwks: JSONWebKeySet = { keys: [publicJwk] };
  const jwksUrl = `${issuer}/.well-known/jwks.json`;

  const mint: DevAuth['mint'] = (subject, claims = {}) =>
    new SignJWT({ scope: claims.scope ?? scope })
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
  const issuerPath = new URL(issuer).pathname.replace(/\/+$/, '');

  return {
    issuer,
    audience: options.audience,
    jwksUrl,
    jwks,
    tokens,
    mint,
    handle(request) {
      const path = new URL(request.url).pathname;
      if (request.method === 'GET' && path === `${issuerPath}/.well-known/jwks.json`) return json(jwks);
      if (request.method === 'GET' && path === `${issuerPath}/.well-known/oauth-authorization-server`) {
        return json({ issuer, jwks_uri: jwksUrl, scopes_supported: [scope] });
      }
      return json({ error: 'not_found' }, 404);
    },
    async writeTokensFile(path = '.local/dev-tokens.json') {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
      return path;
    },
  };
}

/** A running local issuer; `close()` stops its server. */
export interface RunningDevIssuer extends DevAuth {
  close(): Promise<void>;
}

/**
 * Starts a dev issuer on 127.0.0.1 (port 0 = a free port unless given) serving its JWKS, so a
 * verifier can use `new URL(issuer.jwksUrl)` exactly as it would a deployed issuer's.
 */
export async function startDevIssuer(
  options: Omit<DevAuthOptions, 'issuer'> & { port?: number },
): Promise<RunningDevIssuer> {
  // Filled in once the port is known (the issuer URL, and so the tokens' `iss`, depends on it).
  const state: { auth?: DevAuth } = {};
  const server = createServer((req, res) => {
    const response = state.auth?.handle(
      new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method }),
    );
    if (response === undefined) {
      res.writeHead(503).end();
      return;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    void response.text().then((body) => res.writeHead(response.status, headers).end(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const auth = await createDevAuth({ ...options, issuer: `http://127.0.0.1:${port}` });
  state.auth = auth;
  return {
    ...auth,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}
