/** Building source adapters from the directory's source definitions, by adapter kind. */
export { buildSource, unavailableSource } from './build.js';
export { deferredSourceFactory } from './deferred.js';
export type { DeferredSourceOptions, SourceConstructor } from './deferred.js';
export { SourceConfigError } from './errors.js';
export { createSourceCatalog } from './source-catalog.js';
export type { SourceCatalog, SourceCatalogOptions, UnreadableSource } from './source-catalog.js';
export type { ProviderCredential, SourceFactories, SourceFactory, SourceSpec } from './types.js';
