/**
 * A real OAuth 2.0 authorization server on loopback for client-credentials sources: `oidc-provider`
 * (the certified OpenID provider library) with the client-credentials grant and RFC 8707 resource
 * indicators, issuing JWT access tokens (`typ: at+jwt`) signed with a key made at start. Tests and
 * `npm start` register the clients they need; the replay servers of Graph and Okta verify these tokens
 * against its `/jwks`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { once } from 'node:events';
import { exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import type { ClientMetadata } from 'oidc-provider';
import type * as OidcProvider from 'oidc-provider';
import { memoryAdapters } from './memory-adapter.js';

/** One registered client. */
export interface OAuthClientSeed {
  readonly clientId: string;
  readonly authMethod: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** For the `client_secret_*` methods. */
  readonly secret?: string;
  /** For `private_key_jwt`: the client's public keys. */
  readonly jwks?: { readonly keys: readonly JWK[] };
  /** Space-separated scopes the client may be granted. */
  readonly scope: string;
  /** A `tid` claim put into its access tokens (Entra's tenant id), when set. */
  readonly tenantId?: string;
}

/** An API that accepts this server's tokens: its resource indicator becomes the tokens' `aud`. */
export interface ResourceServerSeed {
  readonly resource: string;
  /** Space-separated scopes it understands. */
  readonly scope: string;
}

/** Options of {@link startAuthorizationServer}. */
export interface AuthorizationServerOptions {
  readonly clients: readonly OAuthClientSeed[];
  /** APIs known from the start; more can be added with `addResource` once their URL is known. */
  readonly resources?: readonly ResourceServerSeed[];
  /** @default 300 */
  readonly accessTokenTtlS?: number;
  /** @default 0 (any free port) */
  readonly port?: number;
}

/** A running authorization server. */
export interface AuthorizationServer {
  readonly issuer: string;
  readonly tokenUrl: string;
  readonly jwksUrl: string;
  /** Token requests received so far (every POST to the token endpoint, granted or not). */
  readonly tokenRequests: number;
  /** When true the token endpoint answers `503` before the provider sees the request (an outage). */
  unavailable: boolean;
  /** Milliseconds the token endpoint waits before handling a request. */
  delayMs: number;
  /** Accepts tokens requests for another API (e.g. a replay server started after this one). */
  addResource(resource: ResourceServerSeed): void;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1. */
export async function startAuthorizationServer(
  options: AuthorizationServerOptions,
): Promise<AuthorizationServer> {
  const server: Server = createServer();
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('authorization server has no port');
  const issuer = `http://127.0.0.1:${address.port}`;
  const ttl = options.accessTokenTtlS ?? 300;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'local-as-1' };
  const resources = new Map((options.resources ?? []).map((r) => [r.resource, r]));
  const tenants = new Map(options.clients.map((c) => [c.clientId, c.tenantId]));
  const scopes = new Set(options.clients.flatMap((c) => c.scope.split(' ')).filter((s) => s !== ''));

  const { default: Provider, errors } = await loadOidcProvider();
  const provider = new Provider(issuer, {
    adapter: memoryAdapters(),
    clients: options.clients.map(clientMetadata),
    jwks: { keys: [signing] },
    scopes: [...scopes],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? [...resources.keys()][0] ?? issuer,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          const known = resources.get(resource);
          if (known === undefined) throw new errors.InvalidTarget();
          return { scope: known.scope, audience: resource, accessTokenFormat: 'jwt', accessTokenTTL: ttl };
        },
      },
    },
    ttl: { ClientCredentials: ttl },
    extraTokenClaims: (ctx) => {
      const tid = tenants.get(ctx.oidc.client?.clientId ?? '');
      return tid === undefined ? undefined : { tid };
    },
  });
  const handle = provider.callback();

  const state: AuthorizationServer = {
    issuer,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/jwks`,
    tokenRequests: 0,
    unavailable: false,
    delayMs: 0,
    addResource: (resource) => void resources.set(resource.resource, resource),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const isToken = req.method === 'POST' && req.url === '/token';
    if (isToken) (state as { tokenRequests: number }).tokenRequests += 1;
    const go = () => {
      // A client that gave up while the request was delayed is gone: nothing is left to answer.
      if (req.destroyed) return;
      if (isToken && state.unavailable) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"temporarily_unavailable"}');
        return;
      }
      void handle(req, res);
    };
    if (isToken && state.delayMs > 0) setTimeout(go, state.delayMs);
    else go();
  });
  return state;
}

let oidcProvider: Promise<typeof OidcProvider> | undefined;

/**
 * `oidc-provider` warns on import when Node.js is older than 22 LTS. The function runs on Node 22; this local
 * server also runs on the machine's Node 20 when tests or `npm start` use it there, where it works (the
 * adapter contract tests run it). That one known line is dropped, once per process; any other warning still
 * prints.
 */
function loadOidcProvider(): Promise<typeof OidcProvider> {
  oidcProvider ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!String(args[0]).includes('oidc-provider WARNING: Unsupported runtime')) warn(...args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return oidcProvider;
}

function clientMetadata(seed: OAuthClientSeed): ClientMetadata {
  return {
    client_id: seed.clientId,
    ...(seed.secret === undefined ? {} : { client_secret: seed.secret }),
    ...(seed.jwks === undefined ? {} : { jwks: { keys: [...seed.jwks.keys] } }),
    token_endpoint_auth_method: seed.authMethod,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    scope: seed.scope,
  };
}
