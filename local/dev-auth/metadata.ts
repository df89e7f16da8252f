/**
 * RFC 8414 authorization server metadata of the dev issuer: what a spec-following MCP client (the official
 * SDK's `auth()`, the Inspector, Claude-style hosts) reads before it registers and sends the user to log in.
 */

/** Paths of the issuer's endpoints, relative to the issuer URL. */
export const DEV_AUTH_PATHS = {
  metadata: '/.well-known/oauth-authorization-server',
  jwks: '/.well-known/jwks.json',
  authorize: '/authorize',
  token: '/token',
  register: '/register',
} as const;

/** The RFC 8414 §2 fields this issuer publishes. */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  jwks_uri: string;
  scopes_supported: string[];
  response_types_supported: ['code'];
  response_modes_supported: ['query'];
  grant_types_supported: ['authorization_code', 'refresh_token'];
  token_endpoint_auth_methods_supported: ['none'];
  code_challenge_methods_supported: ['S256'];
  /** RFC 9207: authorization responses carry `iss` (MCP 2026-07-28 clients check it). */
  authorization_response_iss_parameter_supported: true;
}

/**
 * The metadata document. Only public clients (`none`) exist: a local dev issuer has nowhere safe to keep
 * client secrets, and PKCE binds the code to the client that asked for it. No OpenID Connect fields: this
 * issuer mints no ID tokens, so it does not answer at `/.well-known/openid-configuration`.
 */
export function authorizationServerMetadata(
  issuer: string,
  scopes: readonly string[],
): AuthorizationServerMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}${DEV_AUTH_PATHS.authorize}`,
    token_endpoint: `${issuer}${DEV_AUTH_PATHS.token}`,
    registration_endpoint: `${issuer}${DEV_AUTH_PATHS.register}`,
    jwks_uri: `${issuer}${DEV_AUTH_PATHS.jwks}`,
    scopes_supported: [...scopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  };
}
