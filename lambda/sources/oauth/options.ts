/**
 * How a source authenticates at an OAuth 2.0 token endpoint with the client-credentials grant (RFC 6749
 * §4.4), as its definition in the directory states it. Everything here is non-secret: the client secret or
 * private key is the source's `credential_ref`, resolved only when a token is requested.
 */
import { isAllowedProviderUrl } from '../kernel/url-policy.js';
import type { TokenTransport } from './token-transport.js';

/** RFC 7591 `token_endpoint_auth_method` values the broker speaks. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;

/** One of {@link CLIENT_AUTH_METHODS}. */
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** JWS algorithms accepted for `private_key_jwt` assertions (asymmetric only: the key is a private key). */
export const ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const;

/** One of {@link ASSERTION_ALGORITHMS}. */
export type AssertionAlgorithm = (typeof ASSERTION_ALGORITHMS)[number];

/** The client-credentials settings of one source. */
export interface ClientCredentialsOptions {
  /** The token endpoint, e.g. `https://login.microsoftonline.com/<tenant>/oauth2/v2.0/token`. */
  readonly tokenUrl: URL;
  readonly clientId: string;
  readonly authMethod: ClientAuthMethod;
  /** Sent as `scope`, space-separated; omitted when empty. */
  readonly scopes: readonly string[];
  /** RFC 8707 `resource` parameter (the API the token is for), when the server wants one. */
  readonly resource?: string;
  /** `aud` of a `private_key_jwt` assertion. @default the token endpoint URL (RFC 7523 §3) */
  readonly assertionAudience?: string;
  /** @default 'RS256', or the `alg` of a JWK credential */
  readonly assertionAlgorithm?: AssertionAlgorithm;
  /** `kid` header of the assertion (Okta looks the key up by it). @default the `kid` of a JWK credential */
  readonly keyId?: string;
}

/** Options of a {@link ClientCredentialsBroker} besides the per-source settings. */
export interface BrokerOptions {
  /** @default Date.now */
  readonly clock?: () => number;
  /** @default `fetchTokenTransport` (the platform's fetch) */
  readonly transport?: TokenTransport;
  /** Admit a plain `http` token endpoint on a loopback host (the local stack only). @default false */
  readonly allowLoopbackHttp?: boolean;
  /** Longest a token request may take when no caller's deadline is nearer. @default 10000 */
  readonly requestTimeoutMs?: number;
  /** Largest token response read. @default 65536 */
  readonly maxResponseBytes?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const TEXT = /^[\x21-\x7e]{1,512}$/;
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,256}$/; // RFC 6749 §3.3 scope-token

/**
 * Reads the `oauth` object of a definition (at `at`, e.g. `options.oauth`), pushing one problem per bad
 * field, each naming it. `allowHttpLoopback` admits `http://` token endpoints on loopback hosts (local stack).
 */
export function parseClientCredentialsOptions(
  value: unknown,
  at: string,
  problems: string[],
  allowHttpLoopback: boolean,
): ClientCredentialsOptions | undefined {
  if (!isObject(value)) {
    problems.push(`${at} must be an object`);
    return undefined;
  }
  const before = problems.length;
  const known = new Set([
    'token_url',
    'client_id',
    'auth_method',
    'scopes',
    'resource',
    'assertion_audience',
    'assertion_alg',
    'key_id',
  ]);
  for (const key of Object.keys(value))
    if (!known.has(key)) problems.push(`${at}.${key} is not a known option`);
  const tokenUrl = providerUrl(value['token_url'], `${at}.token_url`, problems, allowHttpLoopback);
  const clientId = text(value['client_id'], `${at}.client_id`, problems);
  const authMethod = value['auth_method'];
  if (!CLIENT_AUTH_METHODS.includes(authMethod as ClientAuthMethod))
    problems.push(`${at}.auth_method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`);
  const scopes = value['scopes'] ?? [];
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && SCOPE.test(s)))
    problems.push(`${at}.scopes must be an array of OAuth scope tokens`);
  const optional = (key: string): string | undefined =>
    value[key] === undefined ? undefined : text(value[key], `${at}.${key}`, problems);
  const resource = optional('resource');
  const assertionAudience = optional('assertion_audience');
  const keyId = optional('key_id');
  const alg = value['assertion_alg'];
  if (alg !== undefined && !ASSERTION_ALGORITHMS.includes(alg as AssertionAlgorithm))
    problems.push(`${at}.assertion_alg must be one of ${ASSERTION_ALGORITHMS.join(', ')}`);
  if (alg !== undefined && authMethod !== 'private_key_jwt')
    problems.push(`${at}.assertion_alg applies to auth_method private_key_jwt only`);
  if (problems.length > before || tokenUrl === undefined || clientId === undefined) return undefined;
  return {
    tokenUrl,
    clientId,
    authMethod: authMethod as ClientAuthMethod,
    scopes: scopes as string[],
    ...(resource === undefined ? {} : { resource }),
    ...(assertionAudience === undefined ? {} : { assertionAudience }),
    ...(alg === undefined ? {} : { assertionAlgorithm: alg as AssertionAlgorithm }),
    ...(keyId === undefined ? {} : { keyId }),
  };
}

function text(value: unknown, at: string, problems: string[]): string | undefined {
  if (typeof value === 'string' && TEXT.test(value)) return value;
  problems.push(`${at} must be a non-empty string of printable characters without spaces`);
  return undefined;
}

/**
 * An absolute `https` URL without credentials or fragment; `http` only on a loopback host when allowed.
 * Pushes a problem naming `at` otherwise.
 */
export function providerUrl(
  value: unknown,
  at: string,
  problems: string[],
  allowHttpLoopback: boolean,
): URL | undefined {
  let url: URL;
  try {
    if (typeof value !== 'string') throw new TypeError('not a string');
    url = new URL(value);
  } catch {
    problems.push(`${at} must be an absolute URL`);
    return undefined;
  }
  if (
    url.protocol !== 'https:' &&
    !(url.protocol === 'http:' && isAllowedProviderUrl(url, allowHttpLoopback))
  ) {
    problems.push(`${at} must use https${allowHttpLoopback ? ' (http only on a loopback host)' : ''}`);
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    problems.push(`${at} must not carry user info or a fragment`);
    return undefined;
  }
  return url;
}
