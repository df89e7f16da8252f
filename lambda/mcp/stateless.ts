/**
 * Placeholder for the 2026-07-28 stateless dispatcher. Shape detection (`shape.ts`) already routes
 * stateless POSTs here; the stateless shape itself is a separate piece of work and will replace this file
 * wholesale. Until then every stateless request fails closed with HTTP 400 / -32022, which tells a
 * 2026-07-28 client to fall back to a session-ful version (mcp-2026-notes §1.5: "clients may ... handle
 * -32022 instead").
 */
import { JsonRpcCode, McpError } from './errors.js';
import type { Responder } from './http-responses.js';
import { sessionfulVersions, statelessVersion } from './shape.js';
import type { JsonRpcId } from './types.js';

/** What the stateless dispatcher receives. */
export interface StatelessInput {
  /** JSON-RPC id of the request (null for notifications and unparseable messages). */
  id: JsonRpcId | null;
  respond: Responder;
}

/** Answers a stateless request: not yet supported. */
export function handleStateless(input: StatelessInput): Promise<Response> {
  const error = new McpError(
    JsonRpcCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${statelessVersion} is not yet supported`,
    { data: { supported: [...sessionfulVersions], requested: statelessVersion } },
  );
  return Promise.resolve(input.respond.rpcError(400, input.id, error));
}
