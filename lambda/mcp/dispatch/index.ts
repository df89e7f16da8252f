export { handleBatch, handleSingle, resolveSession } from './sessionful.js';
export type { SessionfulInput } from './sessionful.js';
export { handleDelete, handleGet } from './get-delete.js';
export { callMethod, discoverResult, loggingLevels, serverInfo } from './methods.js';
export { callTool } from './tools-call.js';
export type { ToolsCallAnswer } from './tools-call.js';
export { requestContext } from './context.js';
export type { RequestScope } from './context.js';
