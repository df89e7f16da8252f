/**
 * HTTP helpers of the dev authorization server: OAuth error responses (RFC 6749 §5.2), bounded body
 * reading, form and query parameters that may appear only once (RFC 6749 §3.1), and CORS for the
 * endpoints a browser-based client (the Inspector's web UI) calls with `fetch`.
 */

/** Error codes of RFC 6749 §4.1.2.1 / §5.2, RFC 7591 §3.2.2 and RFC 8707 §2 that this server sends. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'server_error';

/** A refused OAuth request; `description` is written by us and never quotes client input. */
export class OAuthRequestError extends Error {
  override readonly name = 'OAuthRequestError';
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** @default 400 */
    readonly status = 400,
    options?: ErrorOptions,
  ) {
    super(description, options);
  }
}

/**
 * CORS for the metadata, JWKS, registration and token endpoints: they take no cookies and hand out
 * nothing without a registered client and a PKCE verifier, so any origin may call them (a browser client
 * runs discovery and the token exchange with `fetch`). `/authorize` is a navigation and needs none.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
  'access-control-max-age': '600',
};

/** RFC 6749 §5.1: token and registration answers must not be cached. */
export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The JSON error body of RFC 6749 §5.2 (also used by registration, RFC 7591 §3.2.2). */
export function oauthErrorResponse(error: OAuthRequestError): Response {
  const headers: Record<string, string> = { ...CORS_HEADERS, ...NO_STORE };
  // RFC 6749 §5.2: a 401 invalid_client names the scheme the client should have used.
  if (error.status === 401) headers['www-authenticate'] = 'Bearer realm="bos-mcp-dev"';
  return json({ error: error.code, error_description: error.description }, error.status, headers);
}

/** Largest request body read (registration metadata, token form); more is refused, not buffered. */
const MAX_BODY_BYTES = 64 * 1024;

/** The body as text, refusing more than 64 KiB. */
export async function readBody(request: Request): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new OAuthRequestError('invalid_request', 'The request body is too large.');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The media type of the request, parsed (never substring-matched), lower case. */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The parameters of a form body or query; a parameter sent twice is refused (RFC 6749 §3.1). */
export function singleValued(
  params: URLSearchParams,
  multiValued: readonly string[] = [],
): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    if (multiValued.includes(name)) continue;
    if (values.has(name)) {
      throw new OAuthRequestError('invalid_request', `The ${safeName(name)} parameter is repeated.`);
    }
    values.set(name, value);
  }
  return values;
}

/** Parameter names we know are echoed in descriptions; anything else is not quoted back. */
function safeName(name: string): string {
  return /^[a-z_]{1,40}$/.test(name) ? name : 'a';
}
