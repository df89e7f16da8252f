import { BosConfigError } from '../errors.js';

/** The scope a BOS caller must hold. */
export const BOS_READ_SCOPE = 'bos.read';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The RFC 9728 metadata URL of an endpoint: origin + `/.well-known/oauth-protected-resource` + path.
 * It is derived from the configured `MCP_ENDPOINT`, never from the Host header (a forged Host would
 * otherwise send clients to an attacker's authorization server).
 */
export function resourceMetadataUrl(endpoint: string): string {
  const url = parseEndpoint(endpoint);
  return `${url.origin}${WELL_KNOWN}${pathOf(url)}`;
}

/** The paths a client may GET for the metadata: path-scoped first, then the root (MCP authorization). */
export function resourceMetadataPaths(endpoint: string): readonly string[] {
  const url = parseEndpoint(endpoint);
  const scoped = `${WELL_KNOWN}${pathOf(url)}`;
  return scoped === WELL_KNOWN ? [WELL_KNOWN] : [scoped, WELL_KNOWN];
}

/** RFC 9728 §2 protected resource metadata document. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
}

/**
 * The metadata document for this endpoint; only header bearer tokens are accepted (never query strings).
 * @param scopesSupported @default ['bos.read']
 */
export function protectedResourceMetadata(
  endpoint: string,
  authorizationServers: readonly string[],
  scopesSupported: readonly string[] = [BOS_READ_SCOPE],
): ProtectedResourceMetadata {
  const url = parseEndpoint(endpoint);
  return {
    resource: `${url.origin}${pathOf(url)}`,
    authorization_servers: [...authorizationServers],
    scopes_supported: [...scopesSupported],
    bearer_methods_supported: ['header'],
  };
}

/** A 200 JSON answer carrying the metadata document. */
export function protectedResourceMetadataResponse(metadata: ProtectedResourceMetadata): Response {
  return new Response(JSON.stringify(metadata), {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'max-age=300' },
  });
}

function parseEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch (error) {
    throw new BosConfigError('MCP_ENDPOINT must be an absolute URL.', { cause: error });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BosConfigError('MCP_ENDPOINT must be an http(s) URL.');
  }
  return url;
}

/** The endpoint path without a trailing slash (`/` becomes empty). */
function pathOf(url: URL): string {
  return url.pathname.replace(/\/+$/, '');
}
