/**
 * Environment configuration of the deployed function, read and validated once (`config.ts`), its error, and
 * the log-safe fields of any thrown value (`errors.ts`).
 */
export { loadConfig } from './config.js';
export type { AuthConfig, PlatformConfig, StoreConfig, TaskWorkerConfig } from './config.js';
export { ConfigError, errorFields } from './errors.js';
