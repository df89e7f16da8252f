/**
 * OAuth 2.1 sign-in as any public MCP client does it: the endpoint's 401 names its RFC 9728 metadata, that
 * names the authorization server, whose RFC 8414 metadata gives the endpoints; RFC 7591 registration, then
 * the authorization code grant with PKCE S256 and RFC 8707 `resource`.
 *
 * The access token lives in memory only. What must survive the redirect to the authorization server and
 * back (the PKCE verifier, `state`, the client id) goes to `sessionStorage` for that one round trip and is
 * removed when the code comes back; the code and state leave the address bar before the token is asked for.
 */

/** The parts of the authorization server's metadata the console uses. */
export interface AuthorizationServer {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint?: string;
}

/** What discovery found: the resource to ask a token for, its scopes and its authorization server. */
export interface Discovery {
  resource: string;
  scopes: string[];
  server: AuthorizationServer;
}

/** A sign-in that could not be completed; `message` is written for the person at the screen. */
export class SignInError extends Error {
  override readonly name = 'SignInError';
}

const PENDING_KEY = 'bos-console/pending-sign-in';
const CLIENT_KEY_PREFIX = 'bos-console/client/';

interface PendingSignIn {
  state: string;
  verifier: string;
  clientId: string;
  redirectUri: string;
  issuer: string;
  tokenEndpoint: string;
  resource: string;
}

/** Finds the authorization server of `endpoint` from the endpoint's own 401 challenge (RFC 9728 §5.1). */
export async function discover(endpoint: URL): Promise<Discovery> {
  const probe = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
  });
  await probe.body?.cancel();
  const challenge =
    probe.headers.get('www-authenticate') ?? probe.headers.get('x-amzn-remapped-www-authenticate') ?? '';
  const named = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  // Without a challenge, the path-specific well-known URI beside the endpoint (RFC 9728 §3.1).
  const metadataUrl =
    named ?? new URL(`/.well-known/oauth-protected-resource${endpoint.pathname}`, endpoint.origin).href;
  const resource = await getJson(metadataUrl, 'the protected-resource metadata');
  const issuers = resource['authorization_servers'];
  const issuer = Array.isArray(issuers) && typeof issuers[0] === 'string' ? issuers[0] : undefined;
  if (issuer === undefined) throw new SignInError('The endpoint names no authorization server.');
  const scopes = resource['scopes_supported'];
  return {
    resource: typeof resource['resource'] === 'string' ? resource['resource'] : endpoint.href,
    scopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [],
    server: await authorizationServer(issuer),
  };
}

/** RFC 8414 §3.1: the well-known path goes between the issuer's host and its path. */
async function authorizationServer(issuer: string): Promise<AuthorizationServer> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  const metadata = await getJson(
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    'the authorization server metadata',
  );
  const text = (name: string): string | undefined =>
    typeof metadata[name] === 'string' ? metadata[name] : undefined;
  const authorization = text('authorization_endpoint');
  const token = text('token_endpoint');
  // RFC 8414 §3.3: the metadata must name the issuer it was fetched for.
  if (text('issuer') !== issuer || authorization === undefined || token === undefined) {
    throw new SignInError('The authorization server metadata is incomplete or names another issuer.');
  }
  const registration = text('registration_endpoint');
  return {
    issuer,
    authorization_endpoint: authorization,
    token_endpoint: token,
    ...(registration === undefined ? {} : { registration_endpoint: registration }),
  };
}

/** The client id for this page at this server: registered once per browser tab (RFC 7591). */
async function clientId(server: AuthorizationServer, redirectUri: string): Promise<string> {
  const key = `${CLIENT_KEY_PREFIX}${server.issuer} ${redirectUri}`;
  const known = sessionStorage.getItem(key);
  if (known !== null) return known;
  if (server.registration_endpoint === undefined) {
    throw new SignInError('The authorization server offers no dynamic client registration.');
  }
  const response = await fetch(server.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'BOS operator console',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  const id = body['client_id'];
  if (!response.ok || typeof id !== 'string') throw new SignInError('Client registration was refused.');
  sessionStorage.setItem(key, id);
  return id;
}

/**
 * Sends the browser to the authorization server. `loginHint` is the standard `login_hint` parameter: which
 * account the person means to use (the local issuer signs in as that demo subject).
 */
export async function beginSignIn(
  discovery: Discovery,
  redirectUri: string,
  loginHint: string,
): Promise<void> {
  const id = await clientId(discovery.server, redirectUri);
  const verifier = randomToken(32);
  const state = randomToken(16);
  const pending: PendingSignIn = {
    state,
    verifier,
    clientId: id,
    redirectUri,
    issuer: discovery.server.issuer,
    tokenEndpoint: discovery.server.token_endpoint,
    resource: discovery.resource,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const target = new URL(discovery.server.authorization_endpoint);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: id,
    redirect_uri: redirectUri,
    code_challenge: await s256(verifier),
    code_challenge_method: 'S256',
    state,
    resource: discovery.resource,
    ...(discovery.scopes.length > 0 ? { scope: discovery.scopes.join(' ') } : {}),
    ...(loginHint.trim() === '' ? {} : { login_hint: loginHint.trim() }),
  };
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  window.location.assign(target.href);
}

/**
 * Completes a sign-in when the page is the redirect target: returns the access token, `undefined` when the
 * address carries no authorization response. The query leaves the address bar first, whatever happens next.
 */
export async function completeSignIn(location: URL): Promise<string | undefined> {
  const params = location.searchParams;
  if (!params.has('code') && !params.has('error')) return undefined;
  history.replaceState(null, '', location.pathname);
  const stored = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  const pending = stored === null ? undefined : (JSON.parse(stored) as PendingSignIn);
  if (pending === undefined || params.get('state') !== pending.state) {
    throw new SignInError('The sign-in answer does not belong to a sign-in started here.');
  }
  if (params.has('error')) throw new SignInError(`The authorization server refused: ${params.get('error')}.`);
  // RFC 9207: when the server names itself, it must be the one we asked.
  const iss = params.get('iss');
  if (iss !== null && iss !== pending.issuer)
    throw new SignInError('The sign-in answer came from another issuer.');
  const response = await fetch(pending.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: params.get('code') ?? '',
      redirect_uri: pending.redirectUri,
      client_id: pending.clientId,
      code_verifier: pending.verifier,
      resource: pending.resource,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  const token = body['access_token'];
  if (!response.ok || typeof token !== 'string') throw new SignInError('The token request was refused.');
  return token;
}

async function getJson(url: string, what: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok || typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SignInError(`Could not read ${what}.`);
  }
  return body as Record<string, unknown>;
}

function randomToken(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
