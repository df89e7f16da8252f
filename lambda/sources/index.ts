/** Source adapters implementing the federation engine's SourceAdapter port. */
export * from './fixture/index.js';
