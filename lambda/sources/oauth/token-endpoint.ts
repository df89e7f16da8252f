/**
 * One client-credentials token request (RFC 6749 §4.4) on the kernel's transport, and the mapping of its
 * outcome onto the source error codes (providers.md §1.3): a refused client, grant, scope or resource is
 * `provider_authorization_required`, an outage `source_unavailable`. Errors are kernel
 * {@link ProviderError}s — a code, a reason of ours and the HTTP status — never the server's
 * `error_description`, the body or anything sent.
 */
import { assertProviderUrl, ProviderError } from '../kernel/index.js';
import type { ClientAuthentication } from './client-auth.js';
import type { ClientCredentialsOptions } from './options.js';
import { TokenBodyTooLargeError, TokenTransportError } from './token-transport.js';
import type { TokenResponse, TokenTransport } from './token-transport.js';

/** An access token as the endpoint issued it. */
export interface IssuedToken {
  readonly accessToken: string;
  /** Seconds, from `expires_in`; undefined when the server did not say. */
  readonly expiresInS: number | undefined;
}

// RFC 6749 §5.2 and RFC 8707 §2 error codes that say the client, its grant or what it asked for is refused.
const REFUSALS = new Set([
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'invalid_scope',
  'invalid_target',
]);

/** Posts the grant; resolves the token or throws a {@link ProviderError} (the signal's reason on abort). */
export async function requestToken(
  options: ClientCredentialsOptions,
  auth: ClientAuthentication,
  request: {
    signal: AbortSignal;
    transport: TokenTransport;
    maxBodyBytes: number;
    allowLoopbackHttp: boolean;
  },
): Promise<IssuedToken> {
  assertProviderUrl(options.tokenUrl, request.allowLoopbackHttp);
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...auth.fields });
  if (options.scopes.length > 0) form.set('scope', options.scopes.join(' '));
  if (options.resource !== undefined) form.set('resource', options.resource);
  const body = form.toString();
  let result: TokenResponse;
  try {
    // The transport never follows a redirect: a 3xx is refused below, so the credential goes nowhere else.
    result = await request.transport({
      url: options.tokenUrl,
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        ...auth.headers,
      },
      body,
      signal: request.signal,
      maxBodyBytes: request.maxBodyBytes,
    });
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    if (error instanceof TokenBodyTooLargeError)
      throw new ProviderError('source_unavailable', 'body_too_large');
    const refused = error instanceof TokenTransportError && error.code === 'ECONNREFUSED';
    throw new ProviderError('source_unavailable', refused ? 'connection_refused' : 'connection_failed');
  }
  const json = parseJson(result.body);
  if (result.status < 200 || result.status >= 300) throw refusal(result.status, json);
  const accessToken = json?.['access_token'];
  const tokenType = json?.['token_type'];
  const expiresIn = json?.['expires_in'];
  if (
    typeof accessToken !== 'string' ||
    !/^[\x21-\x7e]{1,16384}$/.test(accessToken) ||
    typeof tokenType !== 'string' ||
    tokenType.toLowerCase() !== 'bearer' ||
    (expiresIn !== undefined &&
      !(typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0))
  )
    throw new ProviderError('source_unavailable', 'invalid_response', result.status);
  return { accessToken, expiresInS: expiresIn };
}

function refusal(status: number, json: Record<string, unknown> | undefined): ProviderError {
  const code = json?.['error'];
  if (status === 401 || status === 403 || (typeof code === 'string' && REFUSALS.has(code)))
    return new ProviderError('provider_authorization_required', 'authorization', status);
  if (status === 429) return new ProviderError('rate_limited', 'http_status', status);
  if (status === 504) return new ProviderError('source_timeout', 'http_status', status);
  if (status >= 300 && status < 400) return new ProviderError('source_unavailable', 'redirect', status);
  return new ProviderError('source_unavailable', 'http_status', status);
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
