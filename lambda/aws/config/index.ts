/**
 * Environment configuration of the deployed function, read and validated once (`config.ts`), and the local
 * errors the AWS adapters raise.
 */
export { loadConfig } from './config.js';
export type { AuthConfig, PlatformConfig, StoreConfig, TaskWorkerConfig } from './config.js';
export { ConfigError, errorFields, RestEventError } from './errors.js';
export type { RestEventErrorCode } from './errors.js';
