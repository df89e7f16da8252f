/**
 * One client-credentials token request (RFC 6749 §4.4) and the mapping of its outcome onto the source error
 * codes (providers.md §1.3): a refused client or grant is `provider_authorization_required`, an outage is
 * `source_unavailable`. Errors carry the HTTP status and the registered OAuth error code at most — never the
 * server's `error_description`, the response body or anything sent.
 */
import { SourceError } from '../../federation/index.js';
import { BodyTooLargeError, readBoundedText } from './bounded-body.js';
import type { ClientAuthentication } from './client-auth.js';
import type { ClientCredentialsOptions } from './options.js';

/** An access token as the endpoint issued it. */
export interface IssuedToken {
  readonly accessToken: string;
  /** Seconds, from `expires_in`; undefined when the server did not say. */
  readonly expiresInS: number | undefined;
}

// RFC 6749 §5.2 error codes, and RFC 8707's, that say the client, its grant or what it asked for is refused.
const REFUSALS = new Set([
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'invalid_scope',
  'invalid_target',
]);
const ERROR_CODE = /^[a-z_]{1,64}$/;

/** Posts the grant; resolves the token or throws a {@link SourceError} (or the signal's reason on abort). */
export async function requestToken(
  options: ClientCredentialsOptions,
  auth: ClientAuthentication,
  signal: AbortSignal,
  fetchImpl: typeof fetch,
  maxResponseBytes: number,
): Promise<IssuedToken> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...auth.fields });
  if (options.scopes.length > 0) form.set('scope', options.scopes.join(' '));
  if (options.resource !== undefined) form.set('resource', options.resource);
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(options.tokenUrl, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        ...auth.headers,
      },
      body: form.toString(),
      // A token endpoint has no reason to redirect; following one could send the credential elsewhere.
      redirect: 'error',
      signal,
    });
    text = await readBoundedText(response, maxResponseBytes);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const why =
      error instanceof BodyTooLargeError ? 'answered with an oversized body' : 'could not be reached';
    throw new SourceError('source_unavailable', `token endpoint ${why}`, { cause: nameOnly(error) });
  }
  const body = parseJson(text);
  if (!response.ok) throw refusal(response.status, body);
  const accessToken = body?.['access_token'];
  const tokenType = body?.['token_type'];
  const expiresIn = body?.['expires_in'];
  if (
    typeof accessToken !== 'string' ||
    !/^[\x21-\x7e]{1,16384}$/.test(accessToken) ||
    typeof tokenType !== 'string' ||
    tokenType.toLowerCase() !== 'bearer' ||
    (expiresIn !== undefined &&
      !(typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0))
  )
    throw new SourceError('source_unavailable', 'token endpoint answered without a usable bearer token');
  return { accessToken, expiresInS: expiresIn };
}

function refusal(status: number, body: Record<string, unknown> | undefined): SourceError {
  const code = body?.['error'];
  const oauthError = typeof code === 'string' && ERROR_CODE.test(code) ? code : undefined;
  const detail = `token endpoint answered ${status}${oauthError === undefined ? '' : ` ${oauthError}`}`;
  if (status === 401 || status === 403 || (oauthError !== undefined && REFUSALS.has(oauthError)))
    return new SourceError('provider_authorization_required', detail);
  if (status === 429) return new SourceError('rate_limited', detail);
  return new SourceError('source_unavailable', detail);
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

/** The error's class name only: a network error's message may echo the request. */
function nameOnly(error: unknown): Error {
  const name = error instanceof Error ? error.name : typeof error;
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return new Error(typeof code === 'string' ? `${name} ${code}` : name);
}
