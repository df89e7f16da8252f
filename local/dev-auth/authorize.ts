/**
 * `GET /authorize`: the authorization code grant with PKCE S256 (OAuth 2.1 §4.1). There is no login page:
 * a local dev issuer approves at once, as `dev-user`, or as another demo subject named by `login_hint`.
 * Anyone who can reach 127.0.0.1 can already read `.local/dev-tokens.json`, so this grants nothing new.
 */
import type { IssuerContext } from './context.js';
import { OAuthRequestError, singleValued } from './http.js';
import { isS256Challenge, PKCE_METHOD } from './pkce.js';

/**
 * Answers an authorization request. Until the client and its redirect URI are known good, errors are a
 * 400 page; after that they go back to the client as `error=` on the redirect (RFC 6749 §4.1.2.1), so a
 * forged request can never bounce a browser to an unregistered address.
 */
export function authorize(request: Request, ctx: IssuerContext): Response {
  const query = new URL(request.url).searchParams;
  const clientId = query.getAll('client_id');
  const redirectUri = query.getAll('redirect_uri');
  const client = clientId.length === 1 ? ctx.clients.get(clientId[0] ?? '') : undefined;
  if (client === undefined) return errorPage('The client_id is missing, repeated, or not registered.');
  // OAuth 2.1 §2.3.1: the redirect URI must be sent and must equal a registered one, string for string.
  const redirect = redirectUri.length === 1 ? redirectUri[0] : undefined;
  if (redirect === undefined || !client.redirect_uris.includes(redirect)) {
    return errorPage('The redirect_uri is missing, repeated, or not registered for this client.');
  }
  const state = query.get('state') ?? undefined;
  try {
    // RFC 8707 §2: several `resource` parameters are allowed; each must be this server's resource.
    const resources = query.getAll('resource');
    const params = singleValued(query, ['resource']);
    const responseType = params.get('response_type');
    if (responseType === undefined)
      throw new OAuthRequestError('invalid_request', 'response_type is required.');
    if (responseType !== 'code') {
      throw new OAuthRequestError('unsupported_response_type', 'Only response_type=code is supported.');
    }
    const challenge = params.get('code_challenge');
    if (challenge === undefined) {
      throw new OAuthRequestError('invalid_request', 'code_challenge is required (PKCE, OAuth 2.1 §4.1.1).');
    }
    // RFC 7636 §4.3 makes a missing method mean `plain`; plain is refused, so the method must be sent.
    if (params.get('code_challenge_method') !== PKCE_METHOD) {
      throw new OAuthRequestError('invalid_request', 'code_challenge_method must be S256.');
    }
    if (!isS256Challenge(challenge)) {
      throw new OAuthRequestError('invalid_request', 'code_challenge is not a base64url SHA-256 value.');
    }
    if (resources.some((resource) => resource !== ctx.audience)) {
      throw new OAuthRequestError('invalid_target', 'resource must be this MCP endpoint.');
    }
    const scope = grantedScope(params.get('scope'), ctx.scopes);
    const subject = params.get('login_hint') ?? ctx.subjects[0] ?? 'dev-user';
    if (!ctx.subjects.includes(subject)) {
      throw new OAuthRequestError('access_denied', `login_hint must be one of ${ctx.subjects.join(', ')}.`);
    }
    const code = ctx.grants.issueCode({
      clientId: client.client_id,
      redirectUri: redirect,
      codeChallenge: challenge,
      ...(resources[0] === undefined ? {} : { resource: resources[0] }),
      subject,
      scope,
    });
    return redirectTo(redirect, { code, state, iss: ctx.issuer });
  } catch (error) {
    if (!(error instanceof OAuthRequestError)) throw error;
    return redirectTo(redirect, {
      error: error.code,
      error_description: error.description,
      state,
      iss: ctx.issuer,
    });
  }
}

/**
 * The scope granted: what was asked for, if every part is known, else every supported scope (a client
 * may omit `scope`; RFC 6749 §3.3 lets the server apply its default).
 * @throws OAuthRequestError `invalid_scope`
 */
export function grantedScope(requested: string | undefined, scopes: readonly string[]): string {
  const asked = (requested ?? '').split(' ').filter((s) => s !== '');
  if (asked.some((s) => !scopes.includes(s))) {
    throw new OAuthRequestError('invalid_scope', `scope may only name ${scopes.join(', ')}.`);
  }
  return asked.length === 0 ? scopes.join(' ') : [...new Set(asked)].join(' ');
}

const PAGE = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

/** The 400 page: nothing of the request is echoed, so it cannot carry markup or script. */
function errorPage(reason: string): Response {
  return new Response(`Authorization request refused: ${reason}\n`, { status: 400, headers: PAGE });
}

/** 302 to the registered redirect URI with the response parameters added to its query (RFC 6749 §4.1.2). */
function redirectTo(redirectUri: string, params: Record<string, string | undefined>): Response {
  const location = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) location.searchParams.set(name, value);
  }
  return new Response(null, {
    status: 302,
    headers: { location: location.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}
