export {
  createDemoDirectory,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
  DEMO_SOURCE_IDS,
  DEMO_SOURCE_TIMEOUT_MS,
} from './demo-directory.js';
export { createInMemoryDirectory } from './in-memory-directory.js';
export type { InMemoryDirectoryOptions } from './in-memory-directory.js';
export type { ContextGrant, Directory, PublicContext } from './types.js';
