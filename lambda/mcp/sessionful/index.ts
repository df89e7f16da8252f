export { handleBatch, handleSingle, resolveSession } from './post.js';
export type { SessionfulInput } from './post.js';
export { handleDelete, handleGet } from './get-delete.js';
export { callMethod } from './methods.js';
export { callTool } from './tools-call.js';
export type { ToolsCallAnswer } from './tools-call.js';
export { requestContext } from './context.js';
