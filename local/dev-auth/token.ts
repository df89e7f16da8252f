/**
 * `POST /token`: the `authorization_code` grant (PKCE verified, code single use) and the `refresh_token`
 * grant (rotated on every use), for public clients only (OAuth 2.1 §3.2, §4.1.3, §4.3). Access tokens are
 * the same JWTs as the dev tokens: same key, `iss`, `aud` = the MCP endpoint, `scope`, `sub`.
 */
import { grantedScope } from './authorize.js';
import type { IssuerContext } from './context.js';
import type { RefreshGrant } from './grants.js';
import type { RegisteredClient } from './registration.js';
import {
  CORS_HEADERS,
  json,
  mediaTypeOf,
  NO_STORE,
  OAuthRequestError,
  readBody,
  singleValued,
} from './http.js';
import { isCodeVerifier, verifierMatches } from './pkce.js';

/** The successful token response of RFC 6749 §5.1. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/**
 * Answers a token request.
 * @throws OAuthRequestError for every refusal (the caller turns it into the RFC 6749 §5.2 JSON body)
 */
export async function token(request: Request, ctx: IssuerContext): Promise<Response> {
  if (mediaTypeOf(request) !== 'application/x-www-form-urlencoded') {
    throw new OAuthRequestError('invalid_request', 'The body must be application/x-www-form-urlencoded.');
  }
  const form = new URLSearchParams(await readBody(request));
  const resources = form.getAll('resource');
  const params = singleValued(form, ['resource']);
  const grantType = params.get('grant_type');
  if (grantType === undefined) throw new OAuthRequestError('invalid_request', 'grant_type is required.');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthRequestError(
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token.',
    );
  }
  const client = publicClient(request, params, ctx);
  if (!client.grant_types.includes(grantType)) {
    throw new OAuthRequestError(
      'unauthorized_client',
      `This client did not register the ${grantType} grant.`,
    );
  }
  // RFC 8707 §2: tokens are only ever issued for this MCP endpoint.
  if (resources.some((resource) => resource !== ctx.audience)) {
    throw new OAuthRequestError('invalid_target', 'resource must be this MCP endpoint.');
  }
  const body =
    grantType === 'authorization_code'
      ? await exchangeCode(params, client, ctx)
      : await refresh(params, client, ctx);
  return json(body, 200, { ...NO_STORE, ...CORS_HEADERS });
}

/**
 * The calling client: identified by `client_id` and nothing else (`token_endpoint_auth_method: none`).
 * @throws OAuthRequestError `invalid_client` (401) when it is absent, unknown, or tries to authenticate
 */
function publicClient(request: Request, params: Map<string, string>, ctx: IssuerContext): RegisteredClient {
  if (request.headers.has('authorization') || params.has('client_secret') || params.has('client_assertion')) {
    throw new OAuthRequestError(
      'invalid_client',
      'Only public clients (auth method none) are supported.',
      401,
    );
  }
  const clientId = params.get('client_id');
  const client = clientId === undefined ? undefined : ctx.clients.get(clientId);
  if (client === undefined) {
    throw new OAuthRequestError('invalid_client', 'client_id is missing or not registered.', 401);
  }
  return client;
}

/** RFC 6749 §4.1.3 with RFC 7636 §4.5–4.6. */
async function exchangeCode(
  params: Map<string, string>,
  client: RegisteredClient,
  ctx: IssuerContext,
): Promise<TokenResponse> {
  const code = params.get('code');
  const verifier = params.get('code_verifier');
  const redirectUri = params.get('redirect_uri');
  if (code === undefined || verifier === undefined || redirectUri === undefined) {
    throw new OAuthRequestError('invalid_request', 'code, code_verifier and redirect_uri are required.');
  }
  if (!isCodeVerifier(verifier)) {
    throw new OAuthRequestError('invalid_request', 'code_verifier is not 43 to 128 unreserved characters.');
  }
  const redemption = ctx.grants.redeemCode(code);
  if (redemption.kind === 'reused') {
    throw new OAuthRequestError('invalid_grant', 'The code was already used; its tokens are revoked.');
  }
  if (redemption.kind === 'unknown') {
    throw new OAuthRequestError('invalid_grant', 'The code is unknown or expired.');
  }
  const { grant } = redemption;
  // One answer for every mismatch: a client learns nothing about a code that was not issued to it.
  if (
    grant.clientId !== client.client_id ||
    grant.redirectUri !== redirectUri ||
    !verifierMatches(verifier, grant.codeChallenge)
  ) {
    throw new OAuthRequestError(
      'invalid_grant',
      'The code, client, redirect_uri or code_verifier do not match.',
    );
  }
  const { grantId, subject, scope } = grant;
  return issue(ctx, client, { grantId, clientId: client.client_id, subject, scope }, scope);
}

/** OAuth 2.1 §4.3: a refresh token is bound to its client and replaced by a new one on every use. */
async function refresh(
  params: Map<string, string>,
  client: RegisteredClient,
  ctx: IssuerContext,
): Promise<TokenResponse> {
  const refreshToken = params.get('refresh_token');
  if (refreshToken === undefined)
    throw new OAuthRequestError('invalid_request', 'refresh_token is required.');
  const scope = params.get('scope');
  // Checked before the token is spent, so a bad `scope` does not cost the client its refresh token.
  if (scope !== undefined) grantedScope(scope, ctx.scopes);
  const redemption = ctx.grants.rotateRefreshToken(refreshToken, client.client_id);
  if (redemption.kind === 'reused') {
    throw new OAuthRequestError('invalid_grant', 'The refresh token was already used; the grant is revoked.');
  }
  if (redemption.kind === 'unknown') {
    throw new OAuthRequestError(
      'invalid_grant',
      'The refresh token is unknown, expired, or not this client’s.',
    );
  }
  const { grant } = redemption;
  // RFC 6749 §6: a refresh may narrow the access token's scope, never widen it; the new refresh token
  // keeps the grant's scope.
  const narrowed = scope === undefined ? grant.scope : grantedScope(scope, grant.scope.split(' '));
  return issue(ctx, client, grant, narrowed);
}

/** An access token with `accessScope`, and the grant's next refresh token if the client registered refresh. */
async function issue(
  ctx: IssuerContext,
  client: RegisteredClient,
  grant: RefreshGrant,
  accessScope: string,
): Promise<TokenResponse> {
  const accessToken = await ctx.mint(grant.subject, { scope: accessScope });
  const refreshToken = client.grant_types.includes('refresh_token')
    ? ctx.grants.issueRefreshToken(grant)
    : undefined;
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ctx.accessTtlSeconds,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    scope: accessScope,
  };
}
