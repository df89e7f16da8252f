/**
 * Public types of the MCP runtime. Everything outside `lambda/mcp` (the BOS app, the AWS adapters, the
 * conformance app, tests) codes against these; the implementation lives beside this file.
 *
 * The runtime is web-standard: `McpServer.handle(Request, McpInvocationContext) => Promise<Response>`.
 */

// Split by concern; this barrel keeps every existing `../mcp/types.js` import working.
export type * from './json/wire.js';
export type * from './types/registry.js';
export type * from './types/context.js';
export type * from './types/stores.js';
export type * from './types/options.js';
export type * from './types/telemetry.js';
