export { ToolRegistry } from './tools.js';
export type { ToolEntry } from './tools.js';
export { ResourceRegistry, templatePattern } from './resources.js';
export { PromptRegistry, promptArguments } from './prompts.js';
export { compileValidator } from './schema-validator.js';
export type { ArgsValidator } from './schema-validator.js';
