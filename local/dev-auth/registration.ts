/**
 * RFC 7591 dynamic client registration for public clients. Only what the rest of the issuer relies on is
 * kept: the redirect URIs (matched exactly at `/authorize` and `/token`), the grant types, a name.
 */
import { randomBytes } from 'node:crypto';
import { BoundedMap } from './bounded-map.js';
import { json, NO_STORE, OAuthRequestError } from './http.js';

/** Grant types a client may register (RFC 7591 §2); `authorization_code` is the only way to get a token. */
const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
type GrantType = (typeof GRANT_TYPES)[number];

const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2_000;

/** A registered client, as answered to the registration request (RFC 7591 §3.2.1). */
export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  redirect_uris: string[];
  token_endpoint_auth_method: 'none';
  grant_types: GrantType[];
  response_types: ['code'];
  client_name?: string;
  scope?: string;
}

/** Registered clients, in memory, the oldest forgotten beyond `limit`. */
export class ClientRegistry {
  readonly #clients: BoundedMap<string, RegisteredClient>;

  /** @param limit @default 100 */
  constructor(limit = 100) {
    this.#clients = new BoundedMap(limit);
  }

  get(clientId: string): RegisteredClient | undefined {
    return this.#clients.get(clientId);
  }

  /**
   * Validates the metadata and registers a new client.
   * @throws OAuthRequestError `invalid_redirect_uri` or `invalid_client_metadata` (RFC 7591 §3.2.2)
   */
  register(body: unknown, scopes: readonly string[], nowMs: number): RegisteredClient {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new OAuthRequestError('invalid_client_metadata', 'The body must be a JSON object.');
    }
    const metadata = body as Record<string, unknown>;
    const client: RegisteredClient = {
      client_id: `dev-client-${randomBytes(12).toString('base64url')}`,
      client_id_issued_at: Math.floor(nowMs / 1000),
      redirect_uris: redirectUris(metadata['redirect_uris']),
      token_endpoint_auth_method: authMethod(metadata['token_endpoint_auth_method']),
      grant_types: grantTypes(metadata['grant_types']),
      response_types: responseTypes(metadata['response_types']),
      ...optionalName(metadata['client_name']),
      ...optionalScope(metadata['scope'], scopes),
    };
    this.#clients.set(client.client_id, client);
    return client;
  }
}

/** The 201 answer of RFC 7591 §3.2.1 (no `client_secret`: a public client has none). */
export function registrationResponse(
  client: RegisteredClient,
  extraHeaders: Record<string, string>,
): Response {
  return json(client, 201, { ...NO_STORE, ...extraHeaders });
}

/** Absolute http(s) URLs without a fragment (RFC 6749 §3.1.2); at least one. */
function redirectUris(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_REDIRECT_URIS) {
    throw new OAuthRequestError(
      'invalid_redirect_uri',
      `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URLs.`,
    );
  }
  return value.map((uri) => {
    if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH || !URL.canParse(uri)) {
      throw new OAuthRequestError('invalid_redirect_uri', 'Every redirect URI must be an absolute URL.');
    }
    const url = new URL(uri);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OAuthRequestError('invalid_redirect_uri', 'Redirect URIs must use http or https.');
    }
    if (uri.includes('#')) {
      throw new OAuthRequestError('invalid_redirect_uri', 'Redirect URIs must not have a fragment.');
    }
    // Stored as sent: `/authorize` and `/token` compare the exact string (OAuth 2.1 §2.3.1).
    return uri;
  });
}

/** RFC 7591 §2 defaults to `client_secret_basic`; a public client asks for `none`, or omits it and gets `none`. */
function authMethod(value: unknown): 'none' {
  if (value === undefined || value === 'none') return 'none';
  throw new OAuthRequestError(
    'invalid_client_metadata',
    'Only public clients are supported: token_endpoint_auth_method must be none.',
  );
}

function grantTypes(value: unknown): GrantType[] {
  // Omitted: both grants (RFC 7591 §3.2.1 lets the server substitute values it supports).
  if (value === undefined) return [...GRANT_TYPES];
  const supported: readonly unknown[] = GRANT_TYPES;
  if (
    !Array.isArray(value) ||
    !value.includes('authorization_code') ||
    !value.every((grant) => supported.includes(grant))
  ) {
    throw new OAuthRequestError(
      'invalid_client_metadata',
      'grant_types must include authorization_code and may add refresh_token only.',
    );
  }
  return [...new Set(value as GrantType[])];
}

function responseTypes(value: unknown): ['code'] {
  if (value === undefined) return ['code'];
  if (Array.isArray(value) && value.length > 0 && value.every((type) => type === 'code')) return ['code'];
  throw new OAuthRequestError('invalid_client_metadata', 'response_types may only be code.');
}

function optionalName(value: unknown): { client_name?: string } {
  if (value === undefined) return {};
  if (typeof value === 'string' && value.length <= 200) return { client_name: value };
  throw new OAuthRequestError(
    'invalid_client_metadata',
    'client_name must be a string of at most 200 characters.',
  );
}

function optionalScope(value: unknown, scopes: readonly string[]): { scope?: string } {
  if (value === undefined) return {};
  if (typeof value === 'string' && value.split(' ').every((s) => s === '' || scopes.includes(s))) {
    return { scope: value };
  }
  throw new OAuthRequestError('invalid_client_metadata', `scope may only name ${scopes.join(', ')}.`);
}
