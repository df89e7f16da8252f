/** Request factories for the 2026-07-28 stateless shape (every header and `_meta` key in place). */
import { methods } from '../../../../lambda/mcp/methods/index.js';
import { postHeaders } from '../helpers.js';

export const MODERN = '2026-07-28';

/** The `_meta` every stateless request must carry, plus extras. */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    ...extra,
  };
}

/** The headers a correct stateless client sends for `method` with `params`. */
export function modernHeaders(method: string, params: Record<string, unknown> = {}): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  const field = methods.get(method)?.nameParam;
  const name = field === undefined ? undefined : params[field];
  if (typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}

/**
 * A well-formed stateless POST; `params._meta` defaults to `modernMeta()`, `headers` override or (with
 * `undefined`) remove computed ones.
 */
export function modernPost(
  id: string | number | undefined,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {},
): Request {
  const withMeta = '_meta' in params ? params : { ...params, _meta: modernMeta() };
  const merged: Record<string, string | undefined> = {
    ...postHeaders,
    ...modernHeaders(method, params),
    ...headers,
  };
  const finalHeaders = new Headers();
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) finalHeaders.set(k, v);
  const body =
    id === undefined
      ? { jsonrpc: '2.0', method, params: withMeta }
      : { jsonrpc: '2.0', id, method, params: withMeta };
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: finalHeaders,
    body: JSON.stringify(body),
  });
}

/** Base64 sentinel form of a header value. */
export function sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
