/**
 * Public types of the MCP runtime. Everything outside `lambda/mcp` (the BOS app, the AWS adapters, the
 * conformance app, tests) codes against these; the implementation lives beside this folder.
 *
 * The runtime is web-standard: `McpServer.handle(Request, McpInvocationContext) => Promise<Response>`.
 */
export type * from '../json/wire.js';
export type * from './registry.js';
export type * from './context.js';
export type * from './stores.js';
export type * from './options.js';
export type * from './telemetry.js';
export type * from './tasks.js';
export type * from './rate-limit.js';
