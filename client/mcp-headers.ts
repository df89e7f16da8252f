/**
 * Request headers and `_meta` of the two MCP protocol shapes served on one endpoint
 * (shared `mcp-2026-notes.md` §1.2–1.3, §2.1).
 */

/** The stateless protocol version (MCP 2026-07-28). */
export const STATELESS_PROTOCOL_VERSION = '2026-07-28';
/** The latest session-ful protocol version this client asks for in `initialize`. */
export const SESSIONFUL_PROTOCOL_VERSION = '2025-11-25';
/** The extension id of the BOS streaming delivery (contract §1). */
export const SOURCE_RESULTS_EXTENSION = 'bos/source-results/v1';
/** `_meta` keys of 2026-07-28 requests. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
// Plain visible ASCII (0x21–0x7E) with inner spaces or tabs; no leading/trailing whitespace.
const PLAIN_HEADER_VALUE = /^[\x21-\x7E](?:[\x21-\x7E \t]*[\x21-\x7E])?$/;

/**
 * Encodes an `Mcp-Name` value: as-is when plain visible ASCII, otherwise (non-ASCII, control
 * characters, surrounding whitespace, or a value that itself looks like the sentinel) as
 * `=?base64?{Base64(UTF-8)}?=` with the exact lowercase markers.
 */
export function encodeMcpHeaderValue(value: string): string {
  const looksEncoded = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
  if (PLAIN_HEADER_VALUE.test(value) && !looksEncoded) return value;
  return `${SENTINEL_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_SUFFIX}`;
}

/** Decodes a value produced by {@link encodeMcpHeaderValue} (servers and tests use it). */
export function decodeMcpHeaderValue(value: string): string {
  if (!(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX))) return value;
  return Buffer.from(value.slice(SENTINEL_PREFIX.length, -SENTINEL_SUFFIX.length), 'base64').toString('utf8');
}

/** The `Mcp-Name` source of a request: `params.name` or `params.uri` (notes §1.3). */
export function mcpNameOf(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'tools/call' || method === 'prompts/get')
    return typeof params.name === 'string' ? params.name : undefined;
  if (method === 'resources/read') return typeof params.uri === 'string' ? params.uri : undefined;
  return undefined;
}

/**
 * Adds the request-local streaming opt-in (contract §2): an empty object at
 * `_meta["io.modelcontextprotocol/clientCapabilities"].experimental["bos/source-results/v1"]`.
 * A Boolean does not negotiate the extension, so the value is always `{}`.
 */
export function withSourceResultsOptIn(meta: Record<string, unknown>): Record<string, unknown> {
  const capabilities = (meta[META_CLIENT_CAPABILITIES] as Record<string, unknown> | undefined) ?? {};
  const experimental = (capabilities.experimental as Record<string, unknown> | undefined) ?? {};
  return {
    ...meta,
    [META_CLIENT_CAPABILITIES]: {
      ...capabilities,
      experimental: { ...experimental, [SOURCE_RESULTS_EXTENSION]: {} },
    },
  };
}
