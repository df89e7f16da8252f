export { handleBatch, handleSingle, resolveSession } from './sessionful.js';
export type { SessionfulInput } from './sessionful.js';
export { handleDelete, handleGet } from './get-delete.js';
export { callMethod, discoverResult, serverInfo } from './methods.js';
export { loggingLevels } from './logging-levels.js';
export { callTool } from './tools-call.js';
export type { ToolsCallAnswer } from './tools-call.js';
export { requestContext } from './context.js';
export type { RequestScope } from './context.js';
